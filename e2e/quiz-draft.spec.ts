import type { Page } from '@playwright/test';
import { answerKey, answerQuiz, completeModulesByApi, withoutReviewMark } from './course-content.ts';
import { expect, signInPaidStudentAtHome, test } from './fixtures.ts';

/**
 * Usability pass: a reload (or a phone's back and forward) shows the same open attempt again,
 * and the answers chosen so far come back with it, kept in the tab until the attempt is graded
 * (web/src/features/course/quiz-drafts.ts).
 */

/** The quiz's questions, each a group of radios. */
const questionsOf = (page: Page) => page.getByRole('group').filter({ has: page.getByRole('radio') });

/** The text of each question on the page, in order. */
async function questionTexts(page: Page): Promise<string[]> {
  return (await questionsOf(page).locator('legend').allTextContents()).map((text) => text.trim());
}

/** Checks the right answer of the first `count` questions; returns the answers' texts, in order. */
async function answerFirstQuestions(page: Page, count: number): Promise<string[]> {
  const key = answerKey();
  const chosen: string[] = [];
  for (let i = 0; i < count; i++) {
    const question = questionsOf(page).nth(i);
    const text = ((await question.locator('legend').textContent()) ?? '').replace(/^\d+\.\s*/, '').trim();
    const correct = key.get(withoutReviewMark(text));
    expect(correct, `answer key for "${text}"`).toBeDefined();
    await question.getByRole('radio', { name: correct, exact: true }).check();
    chosen.push(correct ?? '');
  }
  return chosen;
}

test('a student who reloads a chapter quiz finds the answers chosen so far, then submits them', async ({
  page,
  request,
}) => {
  const student = await signInPaidStudentAtHome(page, request);
  await completeModulesByApi(page.request, student.id, 1);

  await page.goto('/quiz/1');
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  const questions = await questionTexts(page);
  const chosen = await answerFirstQuestions(page, 3);
  await expect(page.getByText(`3 of ${String(questions.length)} answered`)).toBeVisible();

  await page.reload();

  // The same attempt, its three answers still chosen and nothing else.
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  expect(await questionTexts(page)).toEqual(questions);
  for (const [i, answer] of chosen.entries()) {
    await expect(questionsOf(page).nth(i).getByRole('radio', { name: answer, exact: true })).toBeChecked();
  }
  await expect(page.getByText(`3 of ${String(questions.length)} answered`)).toBeVisible();
  await expect(page.getByRole('radio', { checked: true })).toHaveCount(3);

  await answerQuiz(page, 0);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page).toHaveURL(/\/score$/);
  await expect(page.getByRole('heading', { name: 'Congratulations, you passed!' })).toBeVisible();
  await expect(
    page.getByText(`Your score: ${String(questions.length)} out of ${String(questions.length)}`),
  ).toBeVisible();
  // Graded: nothing of the attempt is kept in the tab any more.
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('quiz-draft')))).toEqual(
    [],
  );
});
