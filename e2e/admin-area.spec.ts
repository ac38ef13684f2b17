import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { completeCourseByApi, passChapterByApi, REVIEW_MARK } from './course-content.ts';
import {
  createStaffByApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  fillRegistration,
  newStudentDetails,
  registerPaidStudent,
  registerStudent,
  signInAsAdmin,
  signInAsStaff,
  signInAsStudent,
  signInStudentByApi,
  test,
  uniqueTag,
} from './fixtures.ts';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function signOut(page: Page): Promise<void> {
  await sidebar(page).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin-login$/);
}

test('the dashboard shows the last 30 days and the completions by court, and downloads them as CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // One completed course, so that the report has at least one court row whatever runs beside it.
  const student = await registerPaidStudent(request);
  await signInStudentByApi(request, student);
  for (const chapter of [1, 2, 3, 4, 6]) await passChapterByApi(request, student.id, chapter);

  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  const stats = page.getByRole('region', { name: 'Last 30 days' });
  for (const name of ['Registrations', 'Payments', 'Revenue', 'Completions', 'Final exam pass rate']) {
    await expect(stats.getByRole('term').filter({ hasText: new RegExp(`^${name}$`) })).toBeVisible();
  }
  // Every stat has a value (a figure, or a dash with its reason for screen readers).
  await expect(stats.getByRole('definition')).toHaveCount(await stats.getByRole('term').count());

  const report = page.getByRole('region', { name: 'Completions by court' });
  const table = report.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Court',
    '7 days',
    '30 days',
    '60 days',
    '90 days',
    'Total',
  ]);
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expect(report.getByText('Completions in the last 30 days, by court')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^completions-by-court-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await fs.readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n');
  expect(lines[0]).toBe('court_name,seven_day,thirty_day,sixty_day,ninety_day,total');
  // One line per court row of the table, then the final line break.
  expect(lines.length).toBe((await table.getByRole('row').count()) - 1 + 2);
});

test('a super_admin finds a student by search, opens the detail, marks them paid, issues a certificate, and sees it in the audit log', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const student = await registerStudent(request);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await sidebar(page).getByRole('link', { name: 'Students' }).click();
  await expect(page).toHaveURL(/\/admin\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Students' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Students' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Part of the last name (its unique digits): the list follows once typing pauses.
  const part = student.last_name.slice('Garcia'.length);
  await page.getByLabel("Search by name, email or driver's license").pressSequentially(part);
  await expect(page).toHaveURL(new RegExp(`search=${part}`));
  await expect(page.getByRole('status').filter({ hasText: 'Students found: 1' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: student.email });
  await expect(row.getByRole('cell', { name: student.dl_number })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'In Progress' })).toBeVisible();
  await row.getByRole('cell', { name: student.last_name }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/students/${String(student.id)}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Ana ${student.last_name}` })).toBeVisible();
  await expect(page.getByText('In Progress')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(page.getByRole('button', { name: 'Mark as paid' })).toHaveCount(0);
  await expect(page.getByText(/Marked paid by staff/)).toBeVisible();

  // The student finishes (through the API), and the page then offers a new certificate.
  await completeCourseByApi(request, student);
  await page.reload();
  const certificates = page.getByRole('region', { name: 'Certificates and delivery' }).getByText(/^TS-\d{4}-\d{6} · /);
  await expect(certificates).toHaveCount(1);
  await page.getByLabel('Completion date').fill('2023-01-01');
  // A double click, as a hurried person gives: one certificate.
  await page.getByRole('button', { name: 'Generate new certificate' }).dblclick();
  await expect(page.getByRole('link', { name: 'Certificate_Of_Completion.pdf' })).toBeVisible();
  await expect(certificates).toHaveCount(2);
  await expect(page.getByLabel('Completion date')).toHaveValue('');
  // The new certificate can show a render before the button is enabled again; its colours fade
  // in only from then (flaky once in CI: axe measured the fade before it had begun).
  await expect(page.getByRole('button', { name: 'Generate new certificate' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);

  // Back returns to the same search.
  await page.goBack();
  await expect(page.getByLabel("Search by name, email or driver's license")).toHaveValue(part);
  await expect(page.getByRole('row').filter({ hasText: student.email })).toBeVisible();

  // The audit log records both actions on this student.
  await sidebar(page).getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
  const markedPaid = page
    .getByRole('row')
    .filter({ hasText: 'Marked as paid' })
    .filter({ has: page.getByRole('link', { name: `Student #${String(student.id)}`, exact: true }) });
  await expect(markedPaid).toHaveCount(1);
  // Who: the first super_admin (whose name is their username).
  await expect(markedPaid.getByRole('cell').nth(1)).toContainText(E2E_ADMIN.username);
  await expect(page.getByRole('row').filter({ hasText: 'Issued a certificate' }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('an admin enrols a student by hand, who is then paid and signs in straight to the course', async ({
  page,
  browser,
  baseURL,
}) => {
  // Two sign-ins, two accessibility scans and three filled forms: more than the default timeout
  // in a busy CI run, where it timed out at its last step.
  test.setTimeout(60_000);
  const details = newStudentDetails();
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await sidebar(page).getByRole('link', { name: 'Student Sign Up' }).click();
  await expect(page).toHaveURL(/\/admin\/student-sign-up$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Student Sign Up' })).toBeVisible();
  // Spec 5: the court defaults to the first in the list.
  const court = page.getByLabel('Court');
  await expect(court.locator('option').first()).toHaveAttribute('value', /\d+/);
  await expect(court).toHaveValue((await court.locator('option').first().getAttribute('value')) ?? 'none');
  await expectNoSeriousA11yViolations(page);

  const enrol = page.getByRole('button', { name: 'Enroll student' });
  await enrol.click();
  await expect(page.getByRole('alert')).toHaveText('Please fill out all fields.');

  // The court stays the first in the list, as the page chose it.
  const fillDetails = () => fillRegistration(page, details, { stateName: 'California', court: null });
  await fillDetails();
  await enrol.click();
  const enrolled = page.getByRole('status').filter({ hasText: 'Student enrolled.' });
  await expect(enrolled).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const studentUrl = await enrolled.getByRole('link', { name: 'View the student' }).getAttribute('href');
  expect(studentUrl).toMatch(/^\/admin\/students\/\d+$/);
  await expectNoSeriousA11yViolations(page);

  // The same person again: refused with the one message of spec 8.
  await fillDetails();
  await enrol.click();
  await expect(page.getByRole('alert')).toHaveText("A user with this email or driver's license number already exists.");

  await page.goto(studentUrl ?? '');
  await expect(page.getByRole('heading', { level: 1, name: `Ana ${details.last_name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as paid' })).toHaveCount(0);
  await expect(page.getByText(/Marked paid by staff/)).toBeVisible();

  // Enrolled as paid: the student's first sign-in goes to the course, not to /pay.
  const studentContext = await browser.newContext({ baseURL });
  const studentPage = await studentContext.newPage();
  await signInAsStudent(studentPage, details);
  await expect(studentPage).toHaveURL(/\/$/);
  await expect(studentPage.getByRole('heading', { name: `Welcome, Ana ${details.last_name}` })).toBeVisible();
  await studentContext.close();
});

test('an admin edits a chapter 4 question and one of its wrong answers', async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await sidebar(page).getByRole('link', { name: 'Modify Questions' }).click();
  await expect(page).toHaveURL(/\/admin\/modify-questions$/);
  for (const chapter of [1, 2, 3, 4]) {
    await expect(page.getByRole('heading', { level: 2, name: `Chapter ${String(chapter)}` })).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);

  // A question of chapter 4 shown whole and not yet marked (so a retry edits another one).
  const chapter4 = page.getByRole('region', { name: 'Chapter 4' });
  const links = await chapter4.getByRole('link').allTextContents();
  const chosen = links.find((text) => !text.endsWith('…') && !text.endsWith(REVIEW_MARK));
  if (!chosen) throw new Error('no unedited chapter 4 question');
  await chapter4.getByRole('link', { name: chosen, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/modify-questions\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit question' })).toBeVisible();
  await expect(page.getByText('Chapter 4 · Question #')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const questionBox = page.getByLabel('Question text', { exact: true });
  await expect(questionBox).toHaveValue(chosen);
  await questionBox.fill(`${chosen}${REVIEW_MARK}`);
  // Decision 021: one Save for the question and its answers.
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Question saved!')).toBeVisible();

  // A wrong answer: one whose radio in the Correct answer group is not checked.
  const correctGroup = page.getByRole('group', { name: 'Correct answer' });
  const radios = correctGroup.getByRole('radio');
  const count = await radios.count();
  expect(count).toBeGreaterThan(1);
  let wrong = 0;
  let correct = 0;
  for (let index = 0; index < count; index += 1) {
    if (await radios.nth(index).isChecked()) correct = index + 1;
    else if (wrong === 0) wrong = index + 1;
  }
  expect(correct).toBeGreaterThan(0);
  const answerBox = page.getByLabel(`Answer ${String(wrong)}`, { exact: true });
  const answerText = await answerBox.inputValue();
  await answerBox.fill(`${answerText}${REVIEW_MARK}`);
  // The correct-answer choice shows the answer as it is being edited.
  await expect(correctGroup.getByText(`Answer ${String(wrong)}: ${answerText}${REVIEW_MARK}`)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Answer saved!')).toBeVisible();

  // Both edits are kept, and the correct answer is the same one.
  await page.reload();
  await expect(questionBox).toHaveValue(`${chosen}${REVIEW_MARK}`);
  await expect(answerBox).toHaveValue(`${answerText}${REVIEW_MARK}`);
  await expect(radios.nth(correct - 1)).toBeChecked();
});

test('a super_admin creates an admin, who sets a password through the one-time link and changes it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const tag = uniqueTag();
  const username = `admin-${tag}`;
  const name = `Dana Admin ${tag}`;
  const firstPassword = `first-password-${tag}`;
  const newPassword = `second-password-${tag}`;

  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await sidebar(page).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const form = page.getByRole('region', { name: 'New staff account' });
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Email', { exact: true }).fill(`${username}@school.example`);
  // Decision 063: whom the account is for is asked first; the school's staff have no court to choose.
  await form.getByRole('radio', { name: "The school's staff (every court)" }).check();
  await form.getByLabel('Role').selectOption({ label: 'Admin' });
  await expect(form.getByLabel('Court', { exact: true })).toHaveCount(0);
  await form.getByRole('button', { name: 'Create account' }).click();

  const linkBox = page.getByRole('region', { name: `One-time set-password link for ${name}` });
  await expect(linkBox).toBeVisible();
  await expect(linkBox.getByText('This link is shown only now.')).toBeVisible();
  const link = await linkBox.getByLabel('Set-password link').inputValue();
  expect(link).toMatch(/\/set-password#token=.{10,}$/);
  const account = page.getByRole('row').filter({ hasText: username });
  await expect(account.getByText('Waiting for password')).toBeVisible();
  await expect(account.getByRole('cell', { name: 'All courts', exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await signOut(page);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('New password', { exact: true }).fill(firstPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(`${firstPassword}x`);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('alert')).toHaveText('New Password & Confirm New Password must match');
  await page.getByLabel('Confirm new password', { exact: true }).fill(firstPassword);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password has been set. You can now sign in.');
  // The used token leaves the address bar.
  await expect(page).toHaveURL(/\/set-password$/);
  await page.getByRole('link', { name: 'Go to staff sign-in' }).click();

  await signInAsStaff(page, { username, password: firstPassword });
  await expect(page).toHaveURL(/\/admin$/);
  await expect(sidebar(page).getByText(name)).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Change Password' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const current = page.getByLabel('Current Password', { exact: true });
  const next = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm New Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Change Password' });

  await current.fill('not-my-password');
  await next.fill(newPassword);
  await confirm.fill(newPassword);
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText(
    'There was an error changing your password. Please ensure your current password was typed correctly.',
  );

  await current.fill(firstPassword);
  await next.fill(newPassword);
  await confirm.fill(`${newPassword}x`);
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText('New Password & Confirm New Password must match');

  await confirm.fill(newPassword);
  await submit.click();
  await expect(page.getByRole('status')).toHaveText('Your password was successfully changed!');
  await expect(current).toHaveValue('');
  await expectNoSeriousA11yViolations(page);

  await signOut(page);
  await signInAsStaff(page, { username, password: firstPassword });
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await signInAsStaff(page, { username, password: newPassword });
  await expect(page).toHaveURL(/\/admin$/);
});

test('an admin limited to one court sees the court’s completions, Students, Corrections and Change Password only, and only that court’s students', async ({
  page,
  request,
}) => {
  const staff = await createStaffByApi(request, { role: 'admin', court_id: 1 });
  const own = await registerStudent(request);
  const other = await registerStudent(request, { court: 2 });

  await signInAsStaff(page, staff);
  await expect(page).toHaveURL(/\/admin\/students$/);
  await expect(sidebar(page).getByRole('link')).toHaveText([
    'Court Completions',
    'Students',
    'Corrections',
    'Change Password',
  ]);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Students' })).toBeVisible();
  await expect(page.getByLabel('Court')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  const search = page.getByLabel("Search by name, email or driver's license");
  await search.fill(own.last_name);
  await expect(page.getByRole('row').filter({ hasText: own.email })).toBeVisible();
  await search.fill(other.last_name);
  await expect(page.getByText('No students found')).toBeVisible();

  // Another court's student is as if it did not exist.
  await page.goto(`/admin/students/${String(other.id)}`);
  await expect(page.getByRole('alert')).toHaveText('Error getting student details');
});
