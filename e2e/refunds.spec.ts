import {
  expect,
  expectNoSeriousA11yViolations,
  registerStudent,
  signInAsAdmin,
  signInAsStudent,
  test,
} from './fixtures.ts';

/** Decision 058: a refund made from the student's record, and what the student is told afterwards. */

test('an admin refunds a card payment in full from the student record, and the student is told why at sign-in', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // The registering browser pays with Stripe's 4242 test card through the built-in test provider.
  const student = await registerStudent(request);
  const intentAnswer = await request.post('/api/public/payment/intent', { data: { studentId: student.id } });
  expect(intentAnswer.status()).toBe(200);
  const intent = (await intentAnswer.json()) as { paymentIntentId: string; clientSecret: string };
  const paid = await request.post(`/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`, {
    data: { client_secret: intent.clientSecret, card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
  });
  expect(paid.status()).toBe(200);

  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/students/${String(student.id)}`);
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByText('No refund made.')).toBeVisible();

  await refunds.getByRole('button', { name: 'Refund' }).click();
  await refunds.getByRole('button', { name: 'Review refund' }).click();
  await expect(refunds.getByText('Say why the payment is refunded.')).toBeVisible();
  await refunds.getByLabel('Reason for the refund').fill('Student asked within the refund window');
  await refunds.getByRole('button', { name: 'Review refund' }).click();

  const dialog = page.getByRole('dialog', { name: 'Refund this payment?' });
  await expect(dialog).toContainText(/\$\d+\.\d{2} goes back to the card Ana .* paid with\./);
  await expect(dialog).toContainText('the course will be closed');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Refund now' }).click();

  await expect(refunds.getByRole('status')).toHaveText('The refund was made and the student was sent a receipt.');
  await expect(refunds.getByText(/\(refunded\): Student asked within the refund window/)).toBeVisible();
  await expect(refunds.getByRole('button', { name: 'Refund' })).toHaveCount(0);

  // Signed out: the session cookie and the page's display copy of the staff member.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInAsStudent(page, student);
  await expect(page.getByRole('alert')).toHaveText(
    'This course was closed when its payment was refunded. To take the course again, please register again.',
  );
});
