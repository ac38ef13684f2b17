import {
  expect,
  expectNoSeriousA11yViolations,
  newStudentDetails,
  registerPaidStudent,
  signInAsStudent,
  test,
} from './fixtures.ts';

/**
 * Decision 050: a student of a Texas court (a profile that asks personal validation questions)
 * chooses and answers five before studying, on a phone, in Spanish too.
 */
test('a Texas student chooses and answers five personal questions before the course opens', async ({
  page,
  request,
}) => {
  const courts = (await (await request.get('/api/public/courts')).json()) as { id: number; state: string }[];
  const texas = courts.find((court) => court.state === 'TX');
  if (!texas) throw new Error('no Texas court in content/courts.json');
  const student = await registerPaidStudent(request, { ...newStudentDetails(), state: 'TX', court: texas.id });
  await page.setViewportSize({ width: 375, height: 800 });
  await signInAsStudent(page, student);
  await expect(page).toHaveURL(/\/personal-questions$/);
  await expect(page.getByRole('heading', { name: 'Your personal questions' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Saving with nothing chosen says what is missing and keeps the page.
  await page.getByRole('button', { name: 'Save my answers' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please choose five different questions and answer each one.');

  const picks = [
    'What was the make of your first car?',
    'In what city were you born?',
    'What was the name of your first pet?',
    'Where was your first job?',
    'What was your favorite food as a child?',
  ];
  for (const [index, question] of picks.entries()) {
    const group = page.getByRole('group', { name: `Question ${String(index + 1)}` });
    await group.getByLabel('Question', { exact: true }).selectOption({ label: question });
    await group.getByLabel('Your answer').fill(`Answer ${String(index + 1)}`);
  }
  // A question already chosen cannot be chosen twice.
  const sixth = page.getByRole('group', { name: 'Question 5' }).getByLabel('Question', { exact: true });
  await expect(sixth.locator('option', { hasText: 'What was the make of your first car?' })).toBeDisabled();

  await page.getByRole('button', { name: 'Save my answers' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();

  // The Texas edition (decision 051): Texas's law in chapter 1, after the shared modules.
  await page.goto('/content/1');
  await expect(page.getByRole('link', { name: /Texas Traffic Laws/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /What Texas Asks Every Driver to Know/ })).toBeVisible();

  // In Spanish the page speaks Spanish (a second visit says they are set).
  await page.getByRole('button', { name: 'Español' }).click();
  await page.goto('/personal-questions');
  await expect(page.getByRole('heading', { name: 'Sus preguntas personales' })).toBeVisible();
  await expect(page.getByText('Sus preguntas personales ya están guardadas.')).toBeVisible();
});
