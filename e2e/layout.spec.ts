import type { Page } from '@playwright/test';
import { completeModulesByApi } from './course-content.ts';
import { expect, signInAsAdmin, signInPaidStudentAtHome, test } from './fixtures.ts';

/**
 * Where the focused option is, against the quiz's sticky bar below and the sticky header above
 * (their boxes as the window shows them now).
 */
async function focusedOptionAgainstStickies(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLInputElement) || focused.type !== 'radio') return null;
    const option = (focused.closest('label') ?? focused).getBoundingClientRect();
    const bar = document.querySelector('[data-testid="quiz-submit-bar"]')!.getBoundingClientRect();
    const header = document.querySelector('header')!.getBoundingClientRect();
    const lastGroup = Array.from(document.querySelectorAll('fieldset')).at(-1);
    return {
      name: focused.closest('label')?.textContent ?? '',
      inLastQuestion: lastGroup?.contains(focused) ?? false,
      isLastOption:
        lastGroup?.querySelectorAll('input[type="radio"]')[
          lastGroup.querySelectorAll('input[type="radio"]').length - 1
        ] === focused,
      optionTop: option.top,
      optionBottom: option.bottom,
      barTop: bar.top,
      headerBottom: header.bottom,
    };
  });
}

// WCAG 2.2, 2.4.11 (focus not obscured, minimum): the quiz's sticky "n of 10 answered" bar and the
// page's sticky header never cover the option a student moves to with the keyboard (decision 061).
test('on a quiz, every option a student tabs or arrows to is clear of the sticky answered bar and header', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // A short window, so the bar stays stuck over the questions while the student moves down.
  await page.setViewportSize({ width: 1280, height: 600 });
  const student = await signInPaidStudentAtHome(page, request);
  await completeModulesByApi(page.request, student.id, 1);
  await page.goto('/quiz/1');
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();

  const seen: string[] = [];
  let position = await focusedOptionAgainstStickies(page);
  // Tab goes from one question's options to the next; in the last question the arrows go on to its last option.
  for (let presses = 0; presses < 80 && !position?.isLastOption; presses += 1) {
    await page.keyboard.press(position?.inLastQuestion ? 'ArrowDown' : 'Tab');
    position = await focusedOptionAgainstStickies(page);
    if (!position) continue;
    seen.push(position.name);
    expect(position.optionBottom, `"${position.name}" under the answered bar`).toBeLessThanOrEqual(position.barTop);
    expect(position.optionTop, `"${position.name}" under the header`).toBeGreaterThanOrEqual(position.headerBottom);
  }
  expect(position?.isLastOption).toBe(true);
  expect(seen.length).toBeGreaterThan(5);
});

// Decision 061: on a desktop, the admin sidebar is a column of the page, as tall as the page, its
// nav (Sign out included) within reach on a short window.
test('the admin sidebar runs the full height of a long page, and its last item can be reached', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 480 });
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  // The email preview page is long whatever the database holds: its HTML frame and its plain text.
  await page.goto('/admin/emails');
  await expect(page.getByRole('heading', { name: 'Plain text' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(480 * 2);

  const sizes = await page.evaluate(() => ({
    page: document.documentElement.scrollHeight,
    window: window.innerHeight,
    sidebar: document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().height,
  }));
  // The page is longer than the window, and the sidebar as long as the page.
  expect(sizes.page).toBeGreaterThan(sizes.window);
  expect(sizes.sidebar).toBeGreaterThanOrEqual(sizes.page);

  // At the foot of the page, the sidebar's background is still there beside the content.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const atFoot = await page.evaluate(() => {
    const element = document.elementFromPoint(8, window.innerHeight - 4);
    return {
      inSidebar: element?.closest('[data-testid="sidebar"]') !== null,
      background: getComputedStyle(document.querySelector('[data-testid="sidebar"]')!).backgroundColor,
    };
  });
  expect(atFoot.inSidebar).toBe(true);
  expect(atFoot.background).not.toBe('rgba(0, 0, 0, 0)');

  // Sign out, the nav's last control, can be reached and used on a window shorter than the nav.
  const signOut = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' });
  await signOut.scrollIntoViewIfNeeded();
  await expect(signOut).toBeInViewport();
  await signOut.click();
  await expect(page).toHaveURL(/\/admin-login$/);
});
