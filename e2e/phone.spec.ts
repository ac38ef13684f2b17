import {
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  signInAsAdmin,
  signInAsStudent,
  test,
} from './fixtures.ts';

test.use({ viewport: { width: 375, height: 740 } });

test('on a 375 px phone the student pages fit and the menu opens as a slide-over', async ({ page, request }) => {
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Chapter 2' }).click();
  await expect(page).toHaveURL(/\/content\/2$/);
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toHaveAttribute('aria-expanded', 'false');
});

test('the registration page fits a 375 px phone', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Register' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
});

test('the staff list fits a 375 px phone: its table scrolls inside its box, the page does not', async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  await expect(page.getByRole('button', { name: /^Edit/ }).first()).toBeAttached();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
