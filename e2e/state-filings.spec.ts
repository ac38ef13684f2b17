import { completeCourseByApi } from './course-content.ts';
import {
  courtIdNamed,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  signInAsStaff,
  signInAsStudent,
  test,
} from './fixtures.ts';
import { E2E_STATE_REPORT_COURT } from './support/timed-court.ts';

/** Decision 024: a certificate held for the state's report is exported in a batch and marked filed. */
test('an admin exports the state’s waiting certificates as a CSV batch and marks it filed; the student sees the date', async ({
  page,
  request,
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const court = { id: await courtIdNamed(request, E2E_STATE_REPORT_COURT.name) };
  const student = await registerPaidStudent(request, { court: court.id, case_number: 'ND-2026-7781' });
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await completeCourseByApi(api, student);
  await api.dispose();

  const staff = await browser.newContext({ acceptDownloads: true });
  const admin = await staff.newPage();
  await signInAsStaff(admin, E2E_ADMIN);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.getByRole('link', { name: 'State Filings' }).click();
  await admin.getByLabel('State').selectOption({ label: E2E_STATE_REPORT_COURT.stateName });
  const waiting = admin.getByRole('region', { name: /Waiting to be filed in North Dakota/ });
  await expect(waiting.getByRole('row', { name: new RegExp(student.last_name) })).toContainText('ND-2026-7781');
  await expectNoSeriousA11yViolations(admin);

  const downloading = admin.waitForEvent('download');
  await waiting.getByRole('button', { name: 'Export a batch (CSV)' }).click();
  const download = await downloading;
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text.split('\r\n')[0]).toBe(
    '\uFEFFcertificate_number,licence_number,licence_state,last_name,first_name,date_of_birth,court,case_number,completion_date,course_profile,profile_version',
  );
  expect(text).toContain(`${student.dl_number},`);
  expect(text).toContain('ND-2026-7781');
  await expect(waiting.getByText('Every certificate of this state is in a batch.')).toBeVisible();

  const batches = admin.getByRole('region', { name: 'Batches' });
  await batches.getByLabel('State confirmation reference').first().fill('ND-DOT-55120');
  await batches.getByRole('button', { name: 'Mark filed' }).first().click();
  await expect(batches.getByText(/confirmation ND-DOT-55120/)).toBeVisible();
  await staff.close();

  await signInAsStudent(page, student);
  await page.getByRole('link', { name: 'Certificates' }).first().click();
  await expect(page.getByText(/Filed with the state: /)).toBeVisible();
});
