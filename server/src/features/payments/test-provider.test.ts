import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createStudent } from '../../testing/factories.ts';
import { buildStripeEvent, signStripePayload } from '../../testing/stripe-api-server.ts';
import {
  IntentAnswer,
  startPayment,
  markPaid,
  confirmTestCard,
  deliverWebhook,
  paymentAtOf,
  paymentsOf,
  expectUnpaid,
  cardPayment,
  NO_SUCH_PAYMENT,
} from '../../testing/payments.ts';

describe('the built-in test provider’s card form (/api/test-provider)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const statusOf = (intent: IntentAnswer, clientSecret = intent.clientSecret) =>
    t.app.inject({
      method: 'GET',
      url: `/api/test-provider/payment_intents/${intent.paymentIntentId}?client_secret=${clientSecret}`,
    });

  it('charges Stripe’s success card, sends the browser back to /pay and makes the student paid', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    const paidAt = t.clock.now();

    const response = await confirmTestCard(t, intent);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'succeeded',
      redirect_url: `/pay?payment_intent=${intent.paymentIntentId}&payment_intent_client_secret=${intent.clientSecret}&redirect_status=succeeded`,
    });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual([
      cardPayment({ studentId: student.id, provider: 'test', intentId: intent.paymentIntentId, at: paidAt }),
    ]);

    // The /pay page then sends its hint; the payment is already there.
    expect((await markPaid(t, intent.paymentIntentId)).json()).toEqual({ status: 'PAID', studentId: student.id });
    expect(await paymentsOf(t.db, student.id)).toHaveLength(1);
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
  ])(
    'refuses the card %s with a 402 CARD_DECLINED (the provider card_declined) and leaves the student unpaid',
    async (number, message) => {
      const student = await createStudent(t.db);
      const intent = await startPayment(t, student.id);

      const response = await confirmTestCard(t, intent, { card_number: number });

      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual({
        error: {
          code: 'CARD_DECLINED',
          type: 'card_error',
          provider_code: 'card_declined',
          message,
          requestId: expect.any(String) as string,
        },
      });
      await expectUnpaid(t.db, student.id);
      expect((await statusOf(intent)).json<{ status: string }>().status).toBe('requires_payment_method');
    },
  );

  it('lets the student try another card after a refusal', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    expect((await confirmTestCard(t, intent, { card_number: '4000000000000002' })).statusCode).toBe(402);

    const response = await confirmTestCard(t, intent);

    expect(response.json<{ status: string }>().status).toBe('succeeded');
    expect(await paymentAtOf(t.db, student.id)).toEqual(t.clock.now());
  });

  it('answers a 400 CARD_DETAILS_INVALID (a validation_error) for a card number that is not valid, and charges nothing', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);

    const response = await confirmTestCard(t, intent, { card_number: '4242 4242 4242 4241' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'CARD_DETAILS_INVALID',
        type: 'validation_error',
        provider_code: 'invalid_number',
        message: 'Your card number is invalid.',
        requestId: expect.any(String) as string,
      },
    });
    await expectUnpaid(t.db, student.id);
  });

  it('leaves a payment that is still processing unpaid, and says so on the way back to /pay', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);

    const response = await confirmTestCard(t, intent, { card_number: '4000 0000 0000 3220' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'processing',
      redirect_url: `/pay?payment_intent=${intent.paymentIntentId}&payment_intent_client_secret=${intent.clientSecret}&redirect_status=pending`,
    });
    expect((await markPaid(t, intent.paymentIntentId)).statusCode).toBe(409);
    await expectUnpaid(t.db, student.id);
  });

  it('answers 404, and charges nothing, for a wrong client secret', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);

    const response = await confirmTestCard(t, { ...intent, clientSecret: `${intent.paymentIntentId}_secret_guess` });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NO_SUCH_PAYMENT);
    await expectUnpaid(t.db, student.id);
    expect((await statusOf(intent)).json<{ status: string }>().status).toBe('requires_payment_method');
  });

  it('tells the /pay page a PaymentIntent’s status, amount and currency, given its client secret', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    expect((await statusOf(intent)).json()).toEqual({
      id: intent.paymentIntentId,
      status: 'requires_payment_method',
      amount: 2995,
      currency: 'usd',
    });

    await confirmTestCard(t, intent);

    const response = await statusOf(intent);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ status: string }>().status).toBe('succeeded');
  });

  it('tells nothing about a PaymentIntent without its client secret', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    const response = await statusOf(intent, `${intent.paymentIntentId}_secret_guess`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NO_SUCH_PAYMENT);
  });

  it('refuses every webhook delivery, since it sends none', async () => {
    const student = await createStudent(t.db);
    const { paymentIntentId } = await startPayment(t, student.id);
    const payload = buildStripeEvent('payment_intent.succeeded', {
      id: paymentIntentId,
      object: 'payment_intent',
    });

    const response = await deliverWebhook(t, payload, signStripePayload(payload));

    expect(response.statusCode).toBe(400);
    await expectUnpaid(t.db, student.id);
  });
});
