import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

test('/thank-you confirms and links to /login to begin the course', async ({ page }) => {
  await page.goto('/thank-you');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Sign in to begin the course' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('/pay without a student asks the visitor to register or sign in', async ({ page }) => {
  await page.goto('/pay');
  await expect(page.getByText('To pay, please register first')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the support address from SUPPORT_EMAIL is shown', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'help@school.example' })).toHaveAttribute(
    'href',
    'mailto:help@school.example',
  );
});

test('an unknown page says so', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the first pages load their code by area, compressed, and break no rule of the security policy', async ({
  page,
}) => {
  // Chrome reports what the Content-Security-Policy blocked (an eval, an inline style) as an issue.
  const cdp = await page.context().newCDPSession(page);
  const issues: string[] = [];
  cdp.on('Audits.issueAdded', (event) => {
    if (event.issue.code === 'ContentSecurityPolicyIssue') issues.push(JSON.stringify(event.issue));
  });
  await cdp.send('Audits.enable');
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) {
      scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
    }
  });
  for (const url of ['/login', '/register', '/pay']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  expect(issues).toEqual([]);
  // A visitor of the public pages never downloads the student area or the admin area.
  expect(scripts.some((script) => /admin-routes|course-routes/.test(script.url))).toBe(false);
  // The entry script, like every text file of the build, comes brotli-compressed.
  const entry = scripts.find((script) => /\/assets\/index-[^/]+\.js$/.test(script.url));
  expect(entry?.encoding).toBe('br');
});
