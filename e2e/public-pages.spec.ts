import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

test('/thank-you confirms and links to /login to begin the course', async ({ page }) => {
  await page.goto('/thank-you');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Sign in to begin the course' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('/pay without a student asks the visitor to register or sign in', async ({ page }) => {
  await page.goto('/pay');
  await expect(page.getByText('To pay, please register first')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the support address from SUPPORT_EMAIL is shown', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'help@school.example' })).toHaveAttribute(
    'href',
    'mailto:help@school.example',
  );
});

test('an unknown page says so', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
