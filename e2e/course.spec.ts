import { answerQuiz, passChapterByApi } from './course-content.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  signInAsStudent,
  signInPaidStudentAtHome,
  test,
} from './fixtures.ts';

test('a new student goes from Begin Course to a passed final exam', async ({ page, request }) => {
  test.setTimeout(120_000);
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await page.getByRole('link', { name: 'Begin Course' }).click();

  // Chapter 1: the stepper, then every module.
  await expect(page).toHaveURL(/\/content\/1$/);
  await expect(page.getByText('Choose a module to begin!')).toBeVisible();
  await expect(page.getByRole('link', { name: /Chapter 1 Quiz/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const steps = page.getByRole('navigation', { name: 'Chapter 1 steps' }).getByRole('link');
  await steps.first().click();
  for (;;) {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Mark Complete' }).click();
    const moduleUrl = page.url();
    await page.getByRole('button', { name: 'Continue' }).click();
    // A route's code may still be loading (lazy routes): wait for the next page, then look where it is.
    await expect(page).not.toHaveURL(moduleUrl);
    if (/\/quiz\/1$/.test(page.url())) break;
  }

  // The quiz: unanswered questions are named, then a failing try.
  await expect(
    page.getByText(
      'Choose the best answer for each question below. You must answer 7 out of 10 (final: 14 out of 20) correctly to pass. You may retake this quiz as many times as necessary.',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please answer all questions.');
  await expect(page.getByText('Not answered yet')).toHaveCount(10);
  await expectNoSeriousA11yViolations(page);
  await answerQuiz(page, 4);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page).toHaveURL(/\/score$/);
  await expect(page.getByRole('heading', { name: 'You did not pass this time' })).toBeVisible();
  await expect(page.getByText('Your score: 6 out of 10')).toBeVisible();
  await expect(page.getByText('✗ Your answer')).toHaveCount(4);
  await expect(page.getByText('✓ Correct answer')).toHaveCount(10);
  await expectNoSeriousA11yViolations(page);

  // Retake and pass.
  await page.getByRole('link', { name: 'Retry Quiz' }).click();
  await answerQuiz(page, 0);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page.getByRole('heading', { name: 'Congratulations, you passed!' })).toBeVisible();
  await expect(page.getByText('Your score: 10 out of 10')).toBeVisible();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/content\/2$/);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Chapter 1.*complete/ }),
  ).toBeVisible();

  // Chapter 1's quiz now says it is done.
  await page.goto('/quiz/1');
  await expect(
    page.getByText('You have already completed the Chapter 1 Quiz. Choose the next chapter from the menu to continue!'),
  ).toBeVisible();
  // The final is closed until chapters 2-4 are done too.
  await page.goto('/final');
  await expect(page.getByText('You must complete all the chapters before taking the final exam!')).toBeVisible();

  for (const chapter of [2, 3, 4]) await passChapterByApi(page.request, student.id, chapter);

  // The spec's other reading of "after chapter 4": /content/5 leads to the final.
  await page.goto('/content/5');
  await expect(page).toHaveURL(/\/final$/);
  await expect(page.getByRole('heading', { name: 'Final Exam' })).toBeVisible();
  await expect(page.getByRole('radio')).not.toHaveCount(0);
  await answerQuiz(page, 2);
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await expect(page.getByRole('heading', { name: 'Congratulations, you passed!' })).toBeVisible();
  await expect(page.getByText('Your score: 18 out of 20')).toBeVisible();
  await expect(page.getByText(/emailed to you and to your court clerk/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'View your certificate' })).toHaveAttribute('href', '/certificate');
  await page.getByRole('link', { name: 'Return to home page' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Certificates' }),
  ).toBeVisible();
  await page.goto('/final-exam');
  await expect(page.getByText('You have completed the final exam!')).toBeVisible();
});

test('a module shows its topics and its interactive video question', async ({ page, request }) => {
  await signInPaidStudentAtHome(page, request);
  await page.goto('/content/1');
  await page
    .getByRole('navigation', { name: 'Chapter 1 steps' })
    .getByRole('link', { name: /Right of Way/i })
    .click();
  await expect(page.getByRole('heading', { name: 'Video question' })).toBeVisible();
  await page.getByRole('button', { name: 'Play video' }).click();
  // The question appears when the start clip ends; there are no seek controls to skip ahead.
  const question = page
    .getByRole('group')
    .filter({ has: page.getByRole('button') })
    .filter({ hasNotText: 'English' });
  await expect(question).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);
  // Choosing an answer plays its outcome and says whether it was the safe choice.
  await question.getByRole('button').first().click();
  await expect(page.getByText(/Right choice!|Not the safe choice/)).toBeVisible();

  // The course text follows the language switch.
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'El derecho de paso' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Marcar como completado' })).toBeVisible();
});
