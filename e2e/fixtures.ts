import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_ADMIN } from '../playwright.config.ts';

export { expect };
export { E2E_ADMIN };

let sequence = 0;

export interface TestStudent {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  dl_number: string;
  dob: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  court: number;
  /** Optional on the form (decision 024). */
  case_number?: string;
}

/** Digits unique to this test run (and to this worker), for names, emails and usernames. */
export function uniqueTag(): string {
  sequence += 1;
  return `${String(Date.now()).slice(-7)}${String(process.pid % 1000)}${String(sequence)}`;
}

/** The id of a court the public court list names (the end-to-end server adds some, support/server.ts). */
export async function courtIdNamed(request: APIRequestContext, name: string): Promise<number> {
  const courts = (await (await request.get('/api/public/courts')).json()) as { id: number; name: string }[];
  const court = courts.find((listed) => listed.name === name);
  if (!court) throw new Error(`no court named ${name} is listed`);
  return court.id;
}

/** Registration details unique to this test run. */
export function newStudentDetails(): Omit<TestStudent, 'id'> {
  const tag = uniqueTag();
  return {
    first_name: 'Ana',
    last_name: `Garcia${tag}`,
    email: `ana.garcia.${tag}@example.com`,
    dl_number: `E${tag}`,
    dob: '04/15/1990',
    address: '12 Elm Street',
    city: 'Sacramento',
    state: 'CA',
    zip: '95814',
    court: 1,
  };
}

/**
 * Fills the registration form as a driver would: the state, then a court of it (the first listed
 * unless `court` names one; null leaves the court as the form chose it, as staff enrolment does).
 */
export async function fillRegistration(
  page: Page,
  details: Omit<TestStudent, 'id'>,
  place: { stateName: string; court?: string | null } = { stateName: 'California' },
): Promise<void> {
  await page.getByLabel('First name').fill(details.first_name);
  await page.getByLabel('Last name').fill(details.last_name);
  await page.getByLabel('Email').fill(details.email);
  await page.getByLabel("Driver's license number").fill(details.dl_number);
  await page.getByLabel('Date of birth').pressSequentially(details.dob.replaceAll('/', ''));
  await page.getByLabel('Street address').fill(details.address);
  await page.getByLabel('City').fill(details.city);
  await page.getByLabel('State', { exact: true }).selectOption({ label: place.stateName });
  await page.getByLabel('Zip code').fill(details.zip);
  if (place.court === null) return;
  const court = page.getByLabel('Court', { exact: true });
  await (place.court === undefined ? court.selectOption({ index: 1 }) : court.selectOption({ label: place.court }));
  // The chosen court's rules appear above the Register button once fetched: a click sent before
  // they do can land where the button was (a CI flake: the form was never sent).
  await expect(page.locator('#chosen-court-rules')).toBeVisible();
}

/** A student registered through the public API, as the registration page would. */
export async function registerStudent(
  request: APIRequestContext,
  overrides: Partial<Omit<TestStudent, 'id'>> = {},
): Promise<TestStudent> {
  const details = { ...newStudentDetails(), ...overrides };
  const response = await request.post('/api/register/student', { data: details });
  expect(response.status()).toBe(201);
  const { studentId } = (await response.json()) as { studentId: number };
  return { id: studentId, ...details };
}

/** A registered student whom the first super_admin has marked as paid (spec 4), through the API. */
export async function registerPaidStudent(
  request: APIRequestContext,
  overrides: Partial<Omit<TestStudent, 'id'>> = {},
): Promise<TestStudent> {
  const student = await registerStudent(request, overrides);
  const login = await request.post('/api/login/admin', {
    data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const paid = await request.post(`/api/admin/markPaid/${String(student.id)}`, { data: {} });
  expect(paid.status()).toBe(200);
  await request.post('/api/logout');
  return student;
}

/**
 * A paid student signed in through the login page and landed on home: a page opened sooner would
 * find no session yet.
 */
export async function signInPaidStudentAtHome(
  page: Page,
  request: APIRequestContext,
  overrides: Partial<Omit<TestStudent, 'id'>> = {},
): Promise<TestStudent> {
  const student = await registerPaidStudent(request, overrides);
  await signInAsStudent(page, student);
  await expect(page).toHaveURL(/\/$/);
  return student;
}

/** Signs the first super_admin in through the staff login page. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await signInAsStaff(page, E2E_ADMIN);
}

/** Signs a staff member in through the staff login page. */
export async function signInAsStaff(page: Page, staff: { username: string; password: string }): Promise<void> {
  await page.goto('/admin-login');
  await page.getByLabel('Username or email').fill(staff.username);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs a request context in as a student, as the login page would. */
export async function signInStudentByApi(
  request: APIRequestContext,
  student: Pick<TestStudent, 'last_name' | 'dl_number'>,
): Promise<void> {
  const login = await request.post('/api/login/student', {
    data: { last_name: student.last_name, dl_number: student.dl_number },
  });
  expect(login.status()).toBe(200);
}

export interface TestStaff {
  id: number;
  username: string;
  name: string;
  password: string;
}

/** The one-time token of a set-password link (it travels in the fragment: `#token=...`). */
export function tokenOfSetPasswordUrl(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

/**
 * A staff account the first super_admin creates through the API, with its password chosen
 * through the one-time set-password link, as the new member would. The context ends signed out.
 */
export async function createStaffByApi(
  request: APIRequestContext,
  account: { role: 'super_admin' | 'admin' | 'clerk'; court_id: number | null },
): Promise<TestStaff> {
  const tag = uniqueTag();
  const username = `staff-${tag}`;
  const name = `Staff ${tag}`;
  const password = `staff-password-${tag}`;
  const login = await request.post('/api/login/admin', {
    data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const created = await request.post('/api/admin/users', {
    data: { username, name, email: `${username}@school.example`, ...account },
  });
  expect(created.status()).toBe(201);
  const { user, link } = (await created.json()) as { user: { id: number }; link: { setPasswordUrl: string } };
  await request.post('/api/logout');
  const set = await request.post('/api/public/staff/set-password', {
    data: { token: tokenOfSetPasswordUrl(link.setPasswordUrl), password },
  });
  expect(set.status()).toBe(200);
  return { id: user.id, username, name, password };
}

/** Signs a student in through the login page. */
export async function signInAsStudent(
  page: Page,
  student: Pick<TestStudent, 'last_name' | 'dl_number'>,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Last name').fill(student.last_name);
  await page.getByLabel("Driver's license number").fill(student.dl_number);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** axe-core against WCAG 2.1 A and AA: no serious or critical violation may remain. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // A button re-enabled a moment ago is still fading its colours in (transition-colors): axe would
  // measure the contrast of a colour halfway. Let every transition finish first (not the endless
  // animations, such as a loading pulse), including one a render still under way starts: after
  // two frames with none running the page has settled (a re-enabled button once started its
  // fade just after a single look, and axe saw it halfway).
  await page.evaluate(async () => {
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (let look = 0; look < 20; look++) {
      await nextFrame();
      await nextFrame();
      const running = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * Every page is watched: a script error or a Content-Security-Policy violation fails the test.
 * (Failed API answers are part of the journeys and are asserted where they matter.)
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console error: ${message.text()}`);
      }
    });
    await use(page);
    expect(problems).toEqual([]);
  },
});
