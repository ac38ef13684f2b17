import { completeCourseByApi } from './course-content.ts';
import { expect, expectNoSeriousA11yViolations, signInPaidStudentAtHome, test } from './fixtures.ts';

/** Home picks up where the student left off (decision 067); the spec's Begin Course stays. */
test('home shows where a started student is and continues there; a finished one is sent to the certificate', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const student = await signInPaidStudentAtHome(page, request);
  // Not started: no card, only the spec's Begin Course.
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pick up where you left off' })).toHaveCount(0);

  const modules = (await (await page.request.get('/api/content/modules/1')).json()) as { id: number; title: string }[];
  const [first, second] = modules;
  const saved = await page.request.post('/api/students/moduleComplete', {
    data: { studentId: student.id, moduleId: first!.id },
  });
  expect(saved.ok()).toBe(true);
  await page.reload();
  const card = page.getByRole('region', { name: 'Pick up where you left off' });
  await expect(card).toContainText(`Chapter 1 of 4 · Next: ${second!.title}`);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await card.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/1/${String(second!.id)}$`));

  // The chapter page counts the module done and names the next step.
  await page.goto('/content/1');
  await expect(page.getByText(`Next: ${second!.title}`)).toBeVisible();
  await expect(page.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '0');

  await completeCourseByApi(request, student);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Course complete: get your certificate' })).toBeVisible();
  await page.getByRole('link', { name: 'View your certificate' }).click();
  await expect(page).toHaveURL(/\/certificate$/);
});
