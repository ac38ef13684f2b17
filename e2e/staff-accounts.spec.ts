import {
  courtIdNamed,
  expect,
  expectNoSeriousA11yViolations,
  signInAsAdmin,
  signInAsStaff,
  test,
  uniqueTag,
} from './fixtures.ts';

const COURT = 'Superior Court of California, County of Alameda';
const COURT_STAFF = "A court's staff (one court only)";

/**
 * Decision 063: a super_admin says whom an account is for before anything else, a court's clerk
 * gets that court and no other, the form says so before Create, and the clerk then reads the
 * court's name on every page.
 */
test("a super_admin creates a court's clerk for one court, reads what the clerk will see, and the clerk sees the court's name in the title", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  await courtIdNamed(request, COURT);
  const tag = uniqueTag();
  const username = `clerk-${tag}`;
  const name = `Cora Clerk ${tag}`;
  const password = `court-clerk-password-${tag}`;

  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  const form = page.getByRole('region', { name: 'New staff account' });
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Email', { exact: true }).fill(`${username}@court.example`);

  // Nothing is chosen for the person: Create without an answer creates nothing.
  const group = form.getByRole('group', { name: 'This account is for' });
  await expect(group.getByRole('radio')).toHaveCount(2);
  for (const radio of await group.getByRole('radio').all()) await expect(radio).not.toBeChecked();
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(
    form.getByText("Choose whether this account is for the school's staff or a court's staff."),
  ).toBeVisible();

  await group.getByRole('radio', { name: COURT_STAFF }).check();
  const court = form.getByLabel('Court', { exact: true });
  await expect(court.getByRole('option', { name: 'All courts' })).toHaveCount(0);
  await court.selectOption({ label: COURT });
  await expect(form.getByLabel('Role')).toHaveValue('clerk');
  const sentence = `This clerk will see the students, certificates and completions of ${COURT} only.`;
  await expect(form.getByText(sentence)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await form.screenshot({ path: test.info().outputPath('new-court-clerk-form-desktop.png') });
  await page.setViewportSize({ width: 375, height: 900 });
  await expect(form.getByText(sentence)).toBeVisible();
  await form.screenshot({ path: test.info().outputPath('new-court-clerk-form-375.png') });
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  await form.getByRole('button', { name: 'Create account' }).click();
  const linkBox = page.getByRole('region', { name: `One-time set-password link for ${name}` });
  const link = await linkBox.getByLabel('Set-password link').inputValue();
  const account = page.getByRole('row').filter({ hasText: username });
  await expect(account.getByRole('cell', { name: COURT, exact: true })).toBeVisible();

  // The clerk chooses a password through the link and signs in, in a browser of their own.
  const clerkContext = await browser.newContext();
  const clerk = await clerkContext.newPage();
  await clerk.goto(link);
  await clerk.getByLabel('New password', { exact: true }).fill(password);
  await clerk.getByLabel('Confirm new password', { exact: true }).fill(password);
  await clerk.getByRole('button', { name: 'Set password' }).click();
  await expect(clerk.getByRole('status')).toHaveText('Your password has been set. You can now sign in.');
  await signInAsStaff(clerk, { username, password });
  await expect(clerk).toHaveURL(/\/court$/);
  await expect(clerk.getByRole('heading', { level: 1 })).toHaveText(`${COURT}: Court Completions`);
  await expect(clerk).toHaveTitle(new RegExp(`^${COURT}: Court Completions – `));
  await clerk.screenshot({ path: test.info().outputPath('court-clerk-completions.png'), fullPage: true });

  // Every page of theirs says the court first.
  await clerk.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Students' }).click();
  await expect(clerk.getByRole('heading', { level: 1 })).toHaveText(`${COURT}: Students`);
  await expect(clerk).toHaveTitle(new RegExp(`^${COURT}: Students – `));
  await expectNoSeriousA11yViolations(clerk);
  await clerkContext.close();
});
