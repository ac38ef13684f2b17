import type { Page, Request } from '@playwright/test';
import { expect, registerPaidStudent, signInAsStudent, signInPaidStudentAtHome, test } from './fixtures.ts';

/**
 * Decision 015: a reload aborts the calls in flight. An aborted call is no answer from the server,
 * so it must not remove the stored user (spec 8 is about answered failures); the student stays
 * signed in after the reload.
 */

/**
 * Holds the first request whose URL matches `pattern` (a slow connection) until the page leaves
 * it; the calls after it pass untouched. `sent` resolves once the page has sent that request.
 */
async function holdFirstCall(page: Page, pattern: RegExp, method = 'GET'): Promise<{ sent: Promise<Request> }> {
  let sent: (request: Request) => void = () => undefined;
  const held = new Promise<Request>((resolve) => (sent = resolve));
  await page.route(
    (url) => pattern.test(url.pathname),
    (route) => {
      if (route.request().method() !== method) return route.fallback();
      sent(route.request());
      // Never answered: the reload aborts it, as it would a call on a slow connection.
      return undefined;
    },
    { times: 1 },
  );
  // Wrapped: an async function would otherwise wait for the promise it returns.
  return { sent: held };
}

/** Chapter 1's modules done through the student's own session, so its quiz opens. */
async function completeChapterOneModules(page: Page, studentId: number): Promise<void> {
  const modules = (await (await page.request.get('/api/content/modules/1')).json()) as { id: number }[];
  for (const module of modules) {
    const saved = await page.request.post('/api/students/moduleComplete', { data: { studentId, moduleId: module.id } });
    expect(saved.ok()).toBe(true);
  }
}

async function storedUser(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('user'));
}

test('a student who reloads a chapter page while its calls are in flight stays signed in', async ({
  page,
  request,
}) => {
  const student = await signInPaidStudentAtHome(page, request);

  const held = await holdFirstCall(page, /\/api\/students\/\d+\/completedChapters$/);
  await page.goto('/content/1');
  await held.sent;
  await page.reload();

  await expect(page.getByText('Choose a module to begin!')).toBeVisible();
  await expect(page).toHaveURL(/\/content\/1$/);
  expect(await storedUser(page)).toContain(student.last_name);
  // The completed-chapters call asked again after the reload was answered: the sidebar shows.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Chapter 1/ })).toBeVisible();
});

test('a student who reloads the quiz page while the submission is in flight stays signed in', async ({
  page,
  request,
}) => {
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await expect(page).toHaveURL(/\/$/);
  await completeChapterOneModules(page, student.id);

  await page.goto('/quiz/1');
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  const questions = page.getByRole('group').filter({ has: page.getByRole('radio') });
  const count = await questions.count();
  for (let i = 0; i < count; i++) await questions.nth(i).getByRole('radio').first().check();

  const held = await holdFirstCall(page, /\/api\/quiz\/score$/, 'POST');
  await page.getByRole('button', { name: 'Submit Quiz' }).click();
  await held.sent;
  await page.reload();

  await expect(page).toHaveURL(/\/quiz\/1$/);
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  expect(await storedUser(page)).toContain(student.last_name);
});

test('a student who reloads the quiz page while it is loading stays signed in', async ({ page, request }) => {
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await expect(page).toHaveURL(/\/$/);
  await completeChapterOneModules(page, student.id);

  const questions = await holdFirstCall(page, /\/api\/quiz\/questions\/1$/);
  const completed = await holdFirstCall(page, /\/api\/students\/\d+\/completedChapters$/);
  await page.goto('/quiz/1');
  await Promise.all([questions.sent, completed.sent]);
  await page.reload();

  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  await expect(page).toHaveURL(/\/quiz\/1$/);
  expect(await storedUser(page)).toContain(student.last_name);
});
