import { describe, expect, it } from 'vitest';
import { type PaymentReceiptData, paymentReceiptEmail, refundReceiptEmail } from './payment-emails.tsx';

/** Decision 058: the receipts of a card payment and of a refund, in English and Spanish. */

const school = {
  name: 'Safe Roads Traffic School',
  publicUrl: 'https://school.example',
  supportEmail: 'help@school.example',
  address: '100 Example Street, Sacramento, CA 95814',
};

const payment: PaymentReceiptData = {
  school,
  studentName: 'José Núñez',
  reference: 12,
  amountCents: 2995,
  currency: 'usd',
  // 02:00 UTC on the 21st is still the 20th in California.
  at: new Date('2026-11-21T02:00:00Z'),
  timeZone: 'America/Los_Angeles',
  courtName: 'Superior Court of Orange County',
  cardLast4: '4242',
};

describe('the payment receipt', () => {
  it('names the amount, the day on the school’s clock, the course and its court, the card and the school', async () => {
    const email = await paymentReceiptEmail(payment, 'en');
    expect(email.subject).toBe('Your receipt from Safe Roads Traffic School ($29.95)');
    for (const fact of [
      'Receipt number: P-12',
      'Date: November 20, 2026',
      'Amount paid: $29.95',
      'Paid by card ending in 4242',
      'the traffic school course for the Superior Court of Orange County',
      'help@school.example',
    ]) {
      expect(email.text).toContain(fact);
    }
  });

  it('speaks Spanish to a Spanish-speaking student', async () => {
    const email = await paymentReceiptEmail(payment, 'es');
    expect(email.subject).toBe('Su recibo de Safe Roads Traffic School ($29.95)');
    expect(email.text).toContain('Gracias por su pago.');
    expect(email.text).toContain('Fecha: 20 de noviembre de 2026');
    expect(email.text).toContain('Pagado con la tarjeta que termina en 4242');
  });

  it('leaves the card out when the provider did not give its digits', async () => {
    expect((await paymentReceiptEmail({ ...payment, cardLast4: null }, 'en')).text).not.toContain('ending in');
  });
});

describe('the refund receipt', () => {
  const refund = { ...payment, reference: 3, amountCents: 1000, paymentReference: 12, courseClosed: false };

  it('names the refund, the payment it returns money on and the card it goes back to', async () => {
    const email = await refundReceiptEmail(refund, 'en');
    expect(email.subject).toBe('Your refund from Safe Roads Traffic School ($10.00)');
    expect(email.text).toContain('We have refunded $10.00 of your payment P-12.');
    expect(email.text).toContain('Refund number: R-3');
    expect(email.text).toContain('Returned to the card ending in 4242');
    expect(email.text).not.toContain('your course is closed');
  });

  it('says when a full refund closed the course, in the student’s language', async () => {
    expect((await refundReceiptEmail({ ...refund, courseClosed: true }, 'en')).text).toContain(
      'With this refund your course is closed',
    );
    const spanish = await refundReceiptEmail({ ...refund, courseClosed: true }, 'es');
    expect(spanish.subject).toBe('Su reembolso de Safe Roads Traffic School ($10.00)');
    expect(spanish.text).toContain('Con este reembolso su curso queda cerrado');
  });
});
