import { expect, expectNoSeriousA11yViolations, signInPaidStudentAtHome, test } from './fixtures.ts';

/** Spec 4: chapters open in order. A closed one says which quiz opens it, before and after a try (decision 066). */
test('a chapter not open yet shows a lock, says which quiz opens it, and Mark Complete says so too', async ({
  page,
  request,
}) => {
  await signInPaidStudentAtHome(page, request);
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Chapter 2 (locked)' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Chapter 1', exact: true })).toBeVisible();

  await menu.getByRole('link', { name: 'Chapter 2 (locked)' }).click();
  await expect(page.getByText('Pass the Chapter 1 quiz first.')).toBeVisible();
  await expect(page.getByText('Choose a module to begin!')).toHaveCount(0);
  // No step of a closed chapter is "up next".
  const steps = page.getByRole('navigation', { name: 'Chapter 2 steps' });
  await expect(steps.locator('[aria-current="step"]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // Opened anyway by its address, a module's Mark Complete gets the server's refusal in these words.
  await steps.getByRole('link').first().click();
  await page.getByRole('button', { name: 'Mark Complete' }).click();
  await expect(page.getByText('Pass the Chapter 1 quiz first.')).toBeVisible();
  await expect(page.getByText('We could not save your progress. Please try again.')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to the Chapter 1 quiz' }).click();
  await expect(page).toHaveURL(/\/quiz\/1$/);
});
