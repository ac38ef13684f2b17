import { expect, expectNoSeriousA11yViolations, signInPaidStudentAtHome, test } from './fixtures.ts';

test.use({ viewport: { width: 375, height: 740 } });

// Decision 059: the student turns the deadline reminders off on their home page, on a phone too.
test('on a 375 px phone the student turns reminders off, and the home page remembers it', async ({ page, request }) => {
  await signInPaidStudentAtHome(page, request);
  const reminders = page.getByRole('switch', { name: 'Email me reminders before my dates' });
  await expect(reminders).toBeChecked();
  await reminders.scrollIntoViewIfNeeded();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);

  await reminders.click();
  await expect(page.getByRole('status').filter({ hasText: 'Reminders are off.' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Email me reminders before my dates' })).not.toBeChecked();
});
