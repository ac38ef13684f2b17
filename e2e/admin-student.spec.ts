import { completeCourseByApi } from './course-content.ts';
import { expect, expectNoSeriousA11yViolations, registerStudent, signInAsAdmin, test } from './fixtures.ts';

test('a super_admin marks a student paid and issues a certificate with a chosen date from the student detail', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const student = await registerStudent(request);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/students/${String(student.id)}`);
  await expect(page.getByRole('heading', { name: `Ana ${student.last_name}` })).toBeVisible();
  await expect(page.getByText('In Progress')).toBeVisible();
  await expect(page.getByText(student.dl_number)).toBeVisible();
  await expect(page.getByText('04/15/1990')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(page.getByRole('button', { name: 'Mark as paid' })).toHaveCount(0);
  // The school's calendar day (SCHOOL_TIME_ZONE, America/Los_Angeles by default), written as the
  // record's other dates are (11/27/2026), whatever the machine's or UTC's day.
  const today = new Date().toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles' });
  await expect(page.getByText(today).first()).toBeVisible();
  await expect(page.getByText(/Marked paid by staff/)).toBeVisible();

  // A new certificate is for a finished course only: the box waits, saying why, until the final is passed.
  const dateBox = page.getByLabel('Completion date');
  await expect(dateBox).toBeDisabled();
  await expect(
    page.getByText('A new certificate can be generated once the student has passed the final exam.'),
  ).toBeVisible();
  await completeCourseByApi(request, student);
  await page.reload();
  await expect(page.getByText('Complete', { exact: true })).toBeVisible();
  await expect(dateBox).toBeEnabled();

  // A date picker: a day after today is refused at the field, and nothing is issued.
  await expect(dateBox).toHaveAttribute('type', 'date');
  await dateBox.fill('2099-01-01');
  await page.getByRole('button', { name: 'Generate new certificate' }).click();
  await expect(dateBox).toHaveAccessibleDescription(/Please choose a day, today or earlier\./);
  await expect(page.getByText(/^TS-\d{4}-\d{6}/)).toHaveCount(1);

  // The chosen day is said back in the reader's language.
  await dateBox.fill('2023-01-01');
  await expect(page.getByText('January 1, 2023', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Generate new certificate' }).click();
  await expect(page.getByRole('link', { name: 'Certificate_Of_Completion.pdf' })).toBeVisible();
  // The one issued at completion and the new one.
  await expect(page.getByText(/^TS-\d{4}-\d{6}/)).toHaveCount(2);
});

test('a student id that does not exist shows the spec message', async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/students/999999');
  await expect(page.getByRole('alert')).toHaveText('Error getting student details');
});
