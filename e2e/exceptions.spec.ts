import { answerQuiz, completeModulesByApi } from './course-content.ts';
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
import { E2E_ONE_TRY_COURT } from './support/timed-court.ts';

/** A student out of attempts is granted one more by an admin, on the record, and passes. */
test('an admin grants a student out of attempts one more, with a reason, and the student passes', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(60_000);
  const court = { id: await courtIdNamed(request, E2E_ONE_TRY_COURT.name) };
  const student = await registerPaidStudent(request, { court: court.id });
  await signInAsStudent(page, student);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  await completeModulesByApi(page.request, student.id, 1);

  // The one attempt the profile allows, failed.
  await page.goto('/quiz/1');
  await answerQuiz(page, 10);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You did not pass this time' })).toBeVisible();
  await page.getByRole('link', { name: 'Retry Quiz' }).click();
  await expect(page.getByText(/used all 1 attempt/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toHaveCount(0);

  // An admin grants one more, with a reason.
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInAsStaff(admin, E2E_ADMIN);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/admin/students/${String(student.id)}`);
  const section = admin.getByRole('region', { name: 'Exceptions to the rules' });
  await section.getByLabel('Quiz').selectOption({ label: 'Chapter 1 Quiz' });
  await section.getByRole('button', { name: 'Grant exception' }).click();
  await expect(section.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await section.getByLabel('Reason').fill('The connection dropped during the first attempt');
  await section.getByRole('button', { name: 'Grant exception' }).click();
  await expect(section.getByRole('rowheader', { name: 'One more attempt: Chapter 1 Quiz' })).toBeVisible();
  await expect(section.getByText('The connection dropped during the first attempt')).toBeVisible();
  await expectNoSeriousA11yViolations(admin);
  await staff.close();

  // The student's quiz opens again, and this time they pass.
  await page.reload();
  await answerQuiz(page, 0);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Congratulations, you passed!' })).toBeVisible();
});
