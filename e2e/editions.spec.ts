import { E2E_CALIFORNIA_COURT } from './support/timed-court.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  newStudentDetails,
  registerPaidStudent,
  signInAsStudent,
  test,
} from './fixtures.ts';

/** Decision 051: a state edition's student reads their state's law in the chapters it joins; no one else does. */
test("a California court's student reads California's traffic laws in chapter 1, and no other state's", async ({
  page,
  request,
}) => {
  const courts = (await (await request.get('/api/public/courts')).json()) as { id: number; name: string }[];
  const court = courts.find((candidate) => candidate.name === E2E_CALIFORNIA_COURT.name);
  if (!court) throw new Error('no California edition court on the end-to-end server');
  const student = await registerPaidStudent(request, { ...newStudentDetails(), court: court.id });
  await signInAsStudent(page, student);
  // Home first: a page opened before the sign-in lands finds no session yet.
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/content/1');
  const module = page.getByRole('link', { name: /California Traffic Laws/ });
  await expect(module).toBeVisible();
  await expect(page.getByRole('link', { name: /Texas|Florida/ })).toHaveCount(0);
  await module.click();
  await expect(page.getByRole('heading', { name: 'California Traffic Laws', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /The Basic Speed Law/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("a default court's student reads no state's edition", async ({ page, request }) => {
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  // Home first: a page opened before the sign-in lands finds no session yet.
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/content/1');
  await expect(page.getByRole('link', { name: /Railroad Crossings/ })).toBeVisible();
  await expect(
    page.getByRole('link', { name: /California Traffic Laws|Texas Traffic Laws|Florida Traffic Laws/ }),
  ).toHaveCount(0);
});
