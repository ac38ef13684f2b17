import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yViolations,
  fillRegistration,
  newStudentDetails,
  registerPaidStudent,
  registerStudent,
  signInAsStudent,
  test,
  type TestStudent,
} from './fixtures.ts';

/**
 * Registers through the form with an enrolled student's licence, last name and date of birth (a
 * new email): the registration that proves the enrolment is theirs. Answers the dialog it opens.
 */
async function registerAgainAs(page: Page, existing: Pick<TestStudent, 'last_name' | 'dl_number'>): Promise<Locator> {
  await page.goto('/register');
  await fillRegistration(page, {
    ...newStudentDetails(),
    last_name: existing.last_name,
    dl_number: existing.dl_number,
  });
  await page.getByRole('button', { name: 'Register' }).click();
  return page.getByRole('dialog', { name: 'Important Notice' });
}

test.describe('registration', () => {
  test('a new student registers and lands on /pay, which shows the course fee', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByLabel('Court')).toContainText('Select a court...');
    await expectNoSeriousA11yViolations(page);
    await fillRegistration(page, newStudentDetails());
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/pay$/);
    await expect(page.getByRole('button', { name: 'Pay $29.95 now' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('the date of birth is masked as 99/99/9999 while typing', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Date of birth').pressSequentially('0415199077');
    await expect(page.getByLabel('Date of birth')).toHaveValue('04/15/1990');
  });

  test('the state list holds the 50 states and DC', async ({ page }) => {
    await page.goto('/register');
    // 51 choices plus the 'Select a state...' prompt.
    await expect(page.getByLabel('State').locator('option')).toHaveCount(52);
    await expect(page.getByLabel('State').locator('option', { hasText: 'District of Columbia' })).toHaveCount(1);
  });

  test('a missing field shows "Please fill out all fields." and sends nothing', async ({ page }) => {
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/register/')) registrations.push(request.url());
    });
    await page.goto('/register');
    const details = newStudentDetails();
    await fillRegistration(page, details);
    await page.getByLabel('City').fill('');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill out all fields.');
    await expect(page).toHaveURL(/\/register$/);
    expect(registrations).toEqual([]);
  });

  test('a duplicate account opens the Important Notice dialog; Cancel closes it and Continue and Register replaces the old account', async ({
    page,
    request,
  }) => {
    const existing = await registerStudent(request);
    const dialog = await registerAgainAs(page, existing);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("An account already exists with this email or driver's license.");
    await expect(dialog).toContainText('previous progress is not transferred');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Register' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Continue and Register' }).click();
    await expect(page).toHaveURL(/\/pay$/);
    await expect(page.getByRole('button', { name: 'Pay $29.95 now' })).toBeVisible();
  });

  test('registering again over a paid course says its payment does not carry over and offers to sign in instead', async ({
    page,
    request,
  }) => {
    const existing = await registerPaidStudent(request);
    const dialog = await registerAgainAs(page, existing);
    await expect(dialog).toContainText('That course is already paid for, and its payment does not carry over');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('link', { name: 'Sign in to continue it instead.' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInAsStudent(page, existing);
    await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  });
});
