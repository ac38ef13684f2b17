import { expect, expectNoSeriousA11yViolations, registerPaidStudent, signInAsStudent, test } from './fixtures.ts';

test('the language switch translates the whole interface and is remembered', async ({ page, request }) => {
  const student = await registerPaidStudent(request);
  await signInAsStudent(page, student);
  await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();

  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('link', { name: 'Comenzar el curso' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cómo funciona' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Capítulo 1' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expectNoSeriousA11yViolations(page);

  await page.reload();
  await expect(page.getByRole('link', { name: 'Comenzar el curso' })).toBeVisible();
  await page.getByRole('navigation').getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Inicio de sesión del estudiante' })).toBeVisible();

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Student sign in' })).toBeVisible();
});
