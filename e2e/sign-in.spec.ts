import {
  expect,
  expectNoSeriousA11yViolations,
  registerPaidStudent,
  registerStudent,
  signInAsAdmin,
  signInAsStudent,
  test,
} from './fixtures.ts';

test.describe('student sign-in', () => {
  test('a wrong licence number shows the error in red and re-enables the button', async ({ page, request }) => {
    const student = await registerStudent(request);
    await page.goto('/login');
    await expectNoSeriousA11yViolations(page);
    await signInAsStudent(page, { last_name: student.last_name, dl_number: 'WRONG123' });
    const error = page.getByRole('alert');
    // Spec 8's words, and under them what a student signs in with (decision 064).
    await expect(error).toHaveText(
      "Invalid username or password Students sign in with the last name and driver's license number they registered with.",
    );
    const [red, green, blue] = await error.evaluate((element) => {
      // Paint the computed colour (Tailwind gives oklch) to read it back as RGB.
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no canvas');
      context.fillStyle = getComputedStyle(element).color;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data);
    });
    expect(red).toBeGreaterThan(120);
    expect(red).toBeGreaterThan((green ?? 0) * 3);
    expect(red).toBeGreaterThan((blue ?? 0) * 3);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  test('a student registered as Hernández García signs in as "Hernandez" (decision 064)', async ({ page, request }) => {
    const student = await registerStudent(request, { last_name: 'Hernández García' });
    await signInAsStudent(page, { last_name: 'Hernandez', dl_number: student.dl_number });
    await expect(page).toHaveURL(/\/pay$/);
  });

  test('an unpaid student is sent to /pay', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await expect(page).toHaveURL(/\/pay$/);
    await expect(page.getByRole('button', { name: 'Pay $29.95 now' })).toBeVisible();
  });

  test('a paid student reaches home, sees the sidebar, and signs out to /login', async ({ page, request }) => {
    const student = await registerPaidStudent(request);
    await signInAsStudent(page, student);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: `Welcome, Ana ${student.last_name}` })).toBeVisible();
    await expect(page.getByText('Available 24/7')).toBeVisible();
    await expect(page.getByText('Saves your place')).toBeVisible();
    await expect(page.getByText('The court is notified')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const item of ['Home', 'Chapter 1', 'Chapter 2', 'Chapter 3', 'Chapter 4', 'Final Exam']) {
      await expect(nav.getByRole('link', { name: item })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Certificates' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Begin Course' }).click();
    await expect(page).toHaveURL(/\/content\/1$/);
    // A deep link reloads to the same page.
    await page.goto('/content/3');
    await expect(page.getByRole('heading', { name: 'Impaired and Distracted Driving' })).toBeVisible();

    // A signed-in student who opens a login page is sent home.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);

    await nav.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    // The session ended on the server too: the student area sends us back to sign in.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('guards', () => {
  test('a signed-out visitor is sent to the login page of the area', async ({ page }) => {
    await page.goto('/content/2');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/admin/students');
    await expect(page).toHaveURL(/\/admin-login$/);
  });

  test('an invalid stored user is discarded', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('user', '{not json'));
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('a stored user without a live session is sent to sign in', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() =>
      localStorage.setItem(
        'user',
        JSON.stringify({
          id: 1,
          type: 'student',
          name: 'Forged',
          court_id: null,
          payment_at: '2026-01-01T00:00:00Z',
          completed_at: null,
        }),
      ),
    );
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('admin sign-in', () => {
  test('an admin signs in to /admin, sees the full menu, and signs out to /admin-login', async ({ page }) => {
    await page.goto('/admin-login');
    await expectNoSeriousA11yViolations(page);
    await signInAsAdmin(page);
    await expect(page).toHaveURL(/\/admin$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const item of ['Dashboard', 'Students', 'Student Sign Up', 'Modify Questions', 'Change Password', 'Archive']) {
      await expect(nav.getByRole('link', { name: item, exact: true })).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);
    await page.goto('/admin/students/999999');
    await expect(page.getByRole('alert')).toHaveText('Error getting student details');
    await page.goto('/admin-login');
    await expect(page).toHaveURL(/\/admin$/);
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/admin-login$/);
  });

  test('a wrong password shows the error and links to the student login', async ({ page }) => {
    await page.goto('/admin-login');
    await page.getByLabel('Username or email').fill('nobody');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await page.getByRole('link', { name: 'Student sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
