import type { Page } from '@playwright/test';
import {
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  registerStudent,
  signInAsStudent,
  test,
} from './fixtures.ts';

async function payWithCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pay $29.95 now' }).click();
}

test.describe('payment with the built-in test provider', () => {
  test('register, pay with 4242, thank you, sign in, and the course opens', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await expect(page).toHaveURL(/\/pay$/);
    await expect(page.getByText('Test mode: no real card is charged')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/thank-you$/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Back to the card form after paying: the course is paid, said as good news, not a failure.
    await page.goBack();
    await expect(page).toHaveURL(/\/pay$/);
    await expect(page.getByText('This course is already paid for.')).toBeVisible();
    await expect(page.getByText('Error initializing payment')).toHaveCount(0);

    await page.getByRole('link', { name: 'Sign in to begin the course' }).click();
    await signInAsStudent(page, student);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
  });

  test('a pay tab left open while a super_admin marks the student paid takes no money, and says so (decision 042)', async ({
    page,
    request,
  }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await expect(page.getByRole('button', { name: 'Pay $29.95 now' })).toBeEnabled();
    await request.post('/api/login/admin', { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } });
    expect((await request.post(`/api/admin/markPaid/${String(student.id)}`, { data: {} })).status()).toBe(200);

    await payWithCard(page, '4242 4242 4242 4242');

    await expect(page.getByRole('alert')).toHaveText(/^This payment form is no longer valid.*Nothing was charged/);
    await expect(page).toHaveURL(/\/pay$/);
  });

  test('a declined card shows the provider message and the student can try again', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await payWithCard(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page.getByRole('button', { name: 'Pay $29.95 now' })).toBeEnabled();

    await payWithCard(page, '4000 0000 0000 9995');
    await expect(page.getByRole('alert')).toHaveText('Your card has insufficient funds.');

    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/thank-you$/);
  });

  test('an invalid card number is a validation error shown as the provider words it', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await payWithCard(page, '4242 4242 4242 4241');
    await expect(page.getByRole('alert')).toHaveText('Your card number is invalid.');
  });

  test('in Spanish a refused card is said in Spanish, as Stripe would say it', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
    await page.getByLabel('Fecha de vencimiento (MM/AA)').fill('12/34');
    await page.getByLabel('Código de seguridad (CVC)').fill('123');
    await page.getByRole('button', { name: 'Pagar $29.95 ahora' }).click();
    await expect(page.getByRole('alert')).toHaveText('Su tarjeta fue rechazada.');
    await page.getByLabel('Fecha de vencimiento (MM/AA)').fill('01/20');
    await page.getByRole('button', { name: 'Pagar $29.95 ahora' }).click();
    await expect(page.getByRole('alert')).toHaveText('El año de vencimiento de su tarjeta ya pasó.');
  });

  test('a payment that is still processing says so on return', async ({ page, request }) => {
    const student = await registerStudent(request);
    await signInAsStudent(page, student);
    await payWithCard(page, '4000 0000 0000 3220');
    await expect(page.getByText('Your payment is processing.')).toBeVisible();
    await expect(page).toHaveURL(/payment_intent=pi_test_/);
  });
});
