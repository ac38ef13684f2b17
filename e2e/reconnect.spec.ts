import type { Route } from '@playwright/test';
import { expect, signInPaidStudentAtHome, test } from './fixtures.ts';

/** What the server answers while it cannot reach its database (decision 061). */
async function answerUnavailable(route: Route): Promise<void> {
  await route.fulfill({
    status: 503,
    headers: { 'retry-after': '1' },
    contentType: 'application/json',
    body: JSON.stringify({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The school is reconnecting to its database. Your work is saved: please try again in a few seconds.',
      },
    }),
  });
}

test('while the school reconnects to its database, the student is told their work is saved, and the page recovers without a reload', async ({
  page,
  request,
}) => {
  await signInPaidStudentAtHome(page, request);
  // A mark on this very document: a reload would lose it.
  await page.evaluate(() => document.documentElement.setAttribute('data-reconnect-spec', 'same document'));

  // The database goes away: the API answers its next calls 503 with Retry-After, then serves again.
  let refused = 0;
  await page.route('**/api/**', async (route) => {
    if (refused < 4) {
      refused += 1;
      return answerUnavailable(route);
    }
    return route.continue();
  });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chapter 1', exact: true }).click();
  const banner = page.getByText('Your work is saved. We’re reconnecting to the school…');
  await expect(banner).toBeVisible();

  // The reads are asked again by themselves; the chapter appears and the banner goes.
  await expect(page.getByRole('navigation', { name: 'Chapter 1 steps' })).toBeVisible({ timeout: 20_000 });
  await expect(banner).toBeHidden();
  expect(refused).toBe(4);
  await expect(page).toHaveURL(/\/content\/1$/);
  expect(await page.evaluate(() => document.documentElement.getAttribute('data-reconnect-spec'))).toBe('same document');
  // Still signed in: the student's name is still in the sidebar.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
