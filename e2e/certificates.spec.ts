import { passChapterByApi } from './course-content.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  signInAsAdmin,
  signInAsStudent,
  test,
} from './fixtures.ts';

test('after the final, the certificate is listed, emailed, downloadable, verifiable, found in the archive, and the course can be retaken', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  for (const chapter of [1, 2, 3, 4, 6]) await passChapterByApi(page.request, student.id, chapter);

  await page.goto('/final');
  await expect(page.getByText('You have completed the final exam!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download Certificate' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Certificates' }).click();
  await expect(page.getByRole('heading', { name: 'Your certificate', exact: true })).toBeVisible();
  // The school's calendar day (SCHOOL_TIME_ZONE, America/Los_Angeles by default), whatever the machine's.
  const today = new Date().toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles' });
  await expect(page.getByText(today, { exact: true })).toBeVisible();
  // The delivery worker sends within seconds (to the local outbox in this run).
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/Emailed to you: \w{3} \d/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText(/Sent to your court: \w{3} \d/)).toBeVisible();
  // Decision 025: the timeline's last step waits for the court's own acknowledgement.
  await expect(page.getByText('Received by your court: not yet')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download Certificate' }).click();
  expect((await download).suggestedFilename()).toBe('Certificate_Of_Completion.pdf');

  const number = ((await page.getByText(/Certificate number TS-/).textContent()) ?? '').replace(
    'Certificate number ',
    '',
  );
  expect(number).toMatch(/^TS-\d{4}-\d{6}$/);

  // Spec 4: a student whose course is complete signs in to the certificate, not to home.
  const returningContext = await browser.newContext({ baseURL });
  const returning = await returningContext.newPage();
  await signInAsStudent(returning, student);
  await expect(returning).toHaveURL(/\/certificate$/);
  await expect(returning.getByRole('heading', { name: 'Your certificate', exact: true })).toBeVisible();
  await returningContext.close();

  // The public verification page says it is genuine and shows no licence number.
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/verify/${number}`);
  await expect(visitor.getByText('This certificate is genuine.')).toBeVisible();
  await expect(visitor.getByText(student.dl_number)).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor);
  await visitorContext.close();

  // Retake: the dialog word for word; Cancel keeps everything.
  await page.getByRole('button', { name: 'Retake Course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to retake the Course?' });
  await expect(dialog).toContainText(
    'Continuing will result in the loss of your progress, and you will need to register and pay again to retake the course.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Retake Course' }).click();
  await dialog.getByRole('button', { name: 'Yes, retake course' }).click();
  await expect(page).toHaveURL(/\/register$/);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);

  // The archive still finds the certificate of the archived enrolment.
  await signInAsAdmin(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archive' }).click();
  await expect(page.getByText('Enter an email or driver licence to start')).toBeVisible();
  await page.getByLabel('Drivers licence or Email').fill('NO-SUCH-LICENCE');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No data found')).toBeVisible();
  await page.getByLabel('Drivers licence or Email').fill(student.dl_number);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(number)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download certificate' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
