import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yViolations,
  signInAsAdmin,
  signInPaidStudentAtHome,
  test,
  type TestStudent,
} from './fixtures.ts';
import { E2E_MINUTES_PER_MODULE, E2E_TIMED_COURT } from './support/timed-court.ts';

/**
 * Seat time and identity checks (decisions 012 and 013) in a real browser and in real time: a
 * student of the end-to-end court (support/server.ts) is under a profile of two minutes per
 * module and an identity check about every counted minute.
 */

/** The right answer to each question the dialog can ask, from the student's own record. */
function answersOf(student: TestStudent): Record<string, string> {
  return {
    'What is your date of birth?': student.dob,
    'What is the ZIP code of your address?': ` ${student.zip} `,
    'What is the house number of your street address?': student.address.split(' ')[0]!,
  };
}

/** The dialog's answer box and the right answer to the question it asks. */
async function askedQuestion(dialog: Locator, student: TestStudent): Promise<{ input: Locator; answer: string }> {
  await expect(dialog.getByRole('textbox')).toBeVisible();
  for (const [question, answer] of Object.entries(answersOf(student))) {
    const input = dialog.getByLabel(question);
    if ((await input.count()) > 0) return { input, answer };
  }
  throw new Error(`unexpected identity question: ${(await dialog.textContent()) ?? ''}`);
}

/** Answers the open identity check; the first time, a wrong answer comes first and a new question follows. */
async function answerIdentityCheck(page: Page, dialog: Locator, student: TestStudent, wrongFirst: boolean) {
  await expect(dialog.getByText('To continue, please answer this question about yourself.')).toBeVisible();
  await expect(dialog.getByRole('timer')).toHaveText(/^1:[0-3]\d left$/);
  if (wrongFirst) {
    await expectNoSeriousA11yViolations(page);
    const { input } = await askedQuestion(dialog, student);
    await input.fill('not me');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'That answer does not match our records. Please answer this question instead.',
    );
  }
  const { input, answer } = await askedQuestion(dialog, student);
  await input.fill(answer);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
}

test('a student under a timed profile waits for the module time and answers an identity check on the way', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // Real time: two counted minutes, heartbeats every 30 seconds, identity checks on the way.
  test.setTimeout(300_000);
  const courts = (await (await request.get('/api/public/courts')).json()) as { id: number; name: string }[];
  const court = courts.find((candidate) => candidate.name === E2E_TIMED_COURT);
  if (!court) throw new Error(`the end-to-end server has no court named ${E2E_TIMED_COURT}`);
  const student = await signInPaidStudentAtHome(page, request, { court: court.id, state: 'FL' });
  await page.goto('/content/1');
  await page.getByRole('navigation', { name: 'Chapter 1 steps' }).getByRole('link').first().click();

  // The module page shows the time still required; Mark Complete waits for it.
  // Screen readers hear the server's count by the minute; the box counts down by the second.
  const required = `Time still required in this module: ${String(E2E_MINUTES_PER_MODULE)} min`;
  await expect(page.getByRole('status').filter({ hasText: required })).toBeAttached();
  await expect(page.getByText(/^Time still required in this module: [12] min/).last()).toBeVisible();
  const markComplete = page.getByRole('button', { name: 'Mark Complete' });
  await expect(markComplete).toBeDisabled();
  await expect(
    page.getByText('Mark Complete opens once the time required in this module has been counted.'),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The student reads on (the pointer moves, so the page counts them active). The server asks an
  // identity question within the first minute and a half of counted time, before the module's two.
  const dialog = page.getByRole('dialog', { name: 'Identity check' });
  let checksAnswered = 0;
  for (let step = 0; !(await markComplete.isEnabled()) || (await dialog.isVisible()); step++) {
    if (await dialog.isVisible()) {
      await answerIdentityCheck(page, dialog, student, checksAnswered === 0);
      checksAnswered += 1;
      continue;
    }
    expect(step, 'the module time was never counted').toBeLessThan(150);
    await page.mouse.move(200 + (step % 2) * 40, 300);
    await page.waitForTimeout(1_500);
  }
  expect(checksAnswered).toBeGreaterThan(0);
  await expect(
    page.getByText('The time required in this module has been counted. You can mark it complete.'),
  ).toBeAttached();

  // A check that came due with the last heartbeat holds Mark Complete until it is answered.
  await markComplete.click();
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton.or(dialog)).toBeVisible();
  if (await dialog.isVisible()) {
    await answerIdentityCheck(page, dialog, student, false);
    await markComplete.click();
  }
  await expect(continueButton).toBeVisible();
  await expect(page.getByText(/Time still required/)).toHaveCount(0);

  // Staff see the profile, the time counted and every identity question with its result.
  const staffContext = await browser.newContext({ baseURL });
  const staff = await staffContext.newPage();
  await signInAsAdmin(staff);
  await expect(staff).toHaveURL(/\/admin$/);
  await staff.goto(`/admin/students/${String(student.id)}`);
  await expect(staff.getByText('End-to-end timed course (version 1)')).toBeVisible();
  const studyTime = staff.getByRole('region', { name: 'Study time' });
  await expect(studyTime.getByRole('row', { name: /^Chapter 1 [2-9] min/ })).toBeVisible();
  const checks = staff.getByRole('region', { name: 'Identity checks' });
  await expect(checks.getByRole('cell', { name: 'Wrong', exact: true })).toHaveCount(1);
  await expect(checks.getByRole('cell', { name: 'Passed', exact: true })).toHaveCount(checksAnswered);
  await expectNoSeriousA11yViolations(staff);
  await staffContext.close();
});
