import { completeCourseByApi } from './course-content.ts';
import {
  courtIdNamed,
  createStaffByApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  newStudentDetails,
  registerPaidStudent,
  signInAsStaff,
  signInAsStudent,
  test,
} from './fixtures.ts';
import { E2E_ONE_TRY_COURT } from './support/timed-court.ts';

/** Decision 025: the court's own view of its completions, and the student's tracker. */
test('a court clerk sees a completion appear without reloading, exports it, acknowledges it; the student sees the court has it', async ({
  page,
  request,
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const court = { id: await courtIdNamed(request, E2E_ONE_TRY_COURT.name) };
  const clerk = await createStaffByApi(request, { role: 'clerk', court_id: court.id });
  const details = { ...newStudentDetails(), court: court.id };

  // The clerk's page is open, searching for a driver who has not finished yet.
  const staff = await browser.newContext({ acceptDownloads: true });
  const clerkPage = await staff.newPage();
  await signInAsStaff(clerkPage, clerk);
  await expect(clerkPage).toHaveURL(/\/court$/);
  await clerkPage.getByLabel('Search').fill(details.last_name);
  await expect(clerkPage.getByText('No completion matches.')).toBeVisible();
  await expectNoSeriousA11yViolations(clerkPage);

  const student = await registerPaidStudent(request, details);
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await completeCourseByApi(api, student);
  await api.dispose();

  // It appears without a reload.
  const row = clerkPage.getByRole('row', { name: new RegExp(details.last_name) });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText(details.dl_number);

  const downloading = clerkPage.waitForEvent('download');
  await clerkPage.getByRole('button', { name: 'Export CSV' }).click();
  const csv = Buffer.concat(await (await (await downloading).createReadStream()).toArray()).toString('utf8');
  expect(csv.split('\r\n')[0]).toBe(
    '\uFEFFcertificate_number,last_name,first_name,dl_number,case_number,completed_at,court_email_sent_at,acknowledged_at',
  );
  expect(csv).toContain(`${details.last_name},Ana,${details.dl_number}`);

  await row.getByRole('button', { name: /Acknowledge receipt/ }).click();
  await expect(row.getByRole('button', { name: /Acknowledge receipt/ })).toHaveCount(0);
  await staff.close();

  await signInAsStudent(page, student);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/certificate');
  await expect(page.getByText(/Received by your court: /)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a student asks for a last-name correction, an admin approves it, the student downloads the corrected certificate and the old number verifies as superseded', async ({
  page,
  request,
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const student = await registerPaidStudent(request);
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await completeCourseByApi(api, student);
  await api.dispose();

  await signInAsStudent(page, student);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/certificate');
  const original =
    (
      await page
        .getByText(/^Certificate number TS-/)
        .first()
        .textContent()
    )?.replace('Certificate number ', '') ?? '';
  expect(original).toMatch(/^TS-\d{4}-\d{6,}$/);
  await page.getByRole('button', { name: 'Ask for a correction' }).click();
  const dialog = page.getByRole('dialog', { name: 'Correct your certificate' });
  await dialog.getByLabel('What is wrong').selectOption({ label: 'Last name' });
  await dialog.getByLabel('The correct value').fill(`Garcia-Lopez ${student.last_name.slice(6)}`);
  await dialog.getByLabel(/^Why/).fill('My second surname was left out');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/We received your request/)).toBeVisible();

  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInAsStaff(admin, E2E_ADMIN);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto('/admin/corrections');
  const request_ = admin.getByRole('listitem').filter({ hasText: student.last_name });
  await expect(request_.getByRole('button', { name: 'Approve and reissue' })).toBeVisible();
  await expectNoSeriousA11yViolations(admin);
  await request_.getByRole('button', { name: 'Approve and reissue' }).click();
  await expect(admin.getByText('No request here.')).toBeVisible();
  await staff.close();

  await page.reload();
  await expect(page.getByText(`Corrected certificate: replaces ${original}`)).toBeVisible();
  await expect(page.getByText(/Your correction was approved/)).toBeVisible();
  // The corrected certificate comes first; the replaced one, under Past Certificates, names it.
  await expect(page.getByRole('heading', { name: 'Past Certificates' })).toBeVisible();
  await expect(page.getByText(/^Replaced by TS-\d{4}-\d{6,} on \d{1,2}\/\d{1,2}\/\d{4}$/)).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download Certificate' }).first().click();
  const pdf = Buffer.concat(await (await (await downloading).createReadStream()).toArray());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto(`/verify/${original}`);
  await expect(page.getByText(/Superseded by TS-\d{4}-\d{6,} on/)).toBeVisible();
});
