import { completeCourseByApi } from './course-content.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  signInAsAdmin,
  test,
  uniqueTag,
} from './fixtures.ts';

/** Decision 026: the loose ends of a line-by-line audit, as a person meets them. */
test('an email that reaches no one fails at once, says why, and an admin corrects it and resends in one step', async ({
  page,
  request,
  playwright,
}) => {
  test.setTimeout(90_000);
  const student = await registerPaidStudent(request, { email: `not-an-email-${uniqueTag()}` });
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await completeCourseByApi(api, student);
  await api.dispose();

  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/students/${String(student.id)}`);
  const toStudent = page.getByText(`Student (${student.email}):`);
  await expect(async () => {
    await page.reload();
    await expect(toStudent).toContainText('failed', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(toStudent).toContainText('is not an email address mail can be delivered to');

  await page.getByRole('button', { name: 'Correct email or address' }).click();
  const contact = page.getByRole('region', { name: 'Contact details' });
  await contact
    .getByLabel('Email', { exact: true })
    .fill(`fixed.${student.email.replace('not-an-email-', '')}@example.com`);
  await expect(contact.getByLabel('Send the certificate to the new email address now')).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await contact.getByRole('button', { name: 'Save' }).click();
  const fixed = page.getByText(/Student \(fixed\./);
  await expect(async () => {
    await page.reload();
    await expect(fixed).toContainText('sent', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
});
