import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../../testing/build-test-app.ts';
import { createStudent } from '../../testing/factories.ts';
import { buildStripeEvent, type IntentPatch, signStripePayload } from '../../testing/stripe-api-server.ts';
import {
  startPayment,
  markPaid,
  confirmTestCard,
  deliverWebhook,
  eventId,
  paymentAtOf,
  paymentsOf,
  eventRecorded,
  expectUnpaid,
  cardPayment,
  notVerified,
  NO_SUCH_PAYMENT,
  testProviderRig,
  stripeRig,
} from '../../testing/payments.ts';

describe.each([{ rig: testProviderRig() }, { rig: stripeRig() }])('paying with the $rig.name provider', ({ rig }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await rig.start();
  });
  afterAll(async () => {
    await t.close();
    await rig.stop();
  });

  /** A student with a PaymentIntent from the payment page, as the provider holds it. */
  async function studentWithIntent(overrides: Parameters<typeof createStudent>[1] = {}) {
    const student = await createStudent(t.db, overrides);
    const intent = await startPayment(t, student.id);
    return { student, intent };
  }

  describe('POST /api/public/payment/mark-paid (a hint from the browser, checked with the provider)', () => {
    it('refuses a PaymentIntent id the provider does not know with a 404', async () => {
      const { student } = await studentWithIntent();
      const response = await markPaid(t, 'pi_forged_by_the_browser');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NO_SUCH_PAYMENT);
      await expectUnpaid(t.db, student.id);
    });

    it('refuses a PaymentIntent that names another enrolment than the one it was made for', async () => {
      const { student, intent } = await studentWithIntent();
      const other = await createStudent(t.db);
      await rig.setIntent(t, intent.paymentIntentId, {
        status: 'succeeded',
        metadata: { studentId: String(other.id) },
      });

      const response = await markPaid(t, intent.paymentIntentId);

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(notVerified('This payment belongs to another enrolment.'));
      await expectUnpaid(t.db, student.id);
      await expectUnpaid(t.db, other.id);
    });

    it('refuses a succeeded PaymentIntent this school never asked for', async () => {
      const student = await createStudent(t.db);
      const foreign = await rig.addForeignIntent(t, {
        amount: 2995,
        currency: 'usd',
        status: 'succeeded',
        metadata: { studentId: String(student.id) },
      });

      const response = await markPaid(t, foreign);

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(notVerified('This payment does not belong to an enrolment of this school.'));
      await expectUnpaid(t.db, student.id);
    });

    it.each<[string, IntentPatch]>([
      ['an amount other than the course price', { amount: 100 }],
      ['another currency', { currency: 'eur' }],
    ])('refuses a succeeded PaymentIntent for %s', async (_case, patch) => {
      const { student, intent } = await studentWithIntent();
      await rig.setIntent(t, intent.paymentIntentId, { status: 'succeeded', ...patch });

      const response = await markPaid(t, intent.paymentIntentId);

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(notVerified('This payment is not for the course price.'));
      await expectUnpaid(t.db, student.id);
    });

    it.each(['requires_payment_method', 'requires_action', 'processing', 'canceled'] as const)(
      'refuses a PaymentIntent whose status is %s',
      async (status) => {
        const { student, intent } = await studentWithIntent();
        await rig.setIntent(t, intent.paymentIntentId, { status });

        const response = await markPaid(t, intent.paymentIntentId);

        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual(notVerified('This payment has not succeeded.'));
        await expectUnpaid(t.db, student.id);
      },
    );

    it('makes the student paid once the PaymentIntent succeeded for the course price, with one payment', async () => {
      const { student, intent } = await studentWithIntent();
      await rig.setIntent(t, intent.paymentIntentId, { status: 'succeeded' });
      const paidAt = t.clock.now();

      const response = await markPaid(t, intent.paymentIntentId);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'PAID', studentId: student.id });
      expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
      expect(await paymentsOf(t.db, student.id)).toEqual([
        cardPayment({ studentId: student.id, provider: rig.name, intentId: intent.paymentIntentId, at: paidAt }),
      ]);
    });

    it('changes nothing when the browser marks the same payment again later', async () => {
      const { student, intent } = await studentWithIntent();
      await rig.setIntent(t, intent.paymentIntentId, { status: 'succeeded' });
      const paidAt = t.clock.now();
      expect((await markPaid(t, intent.paymentIntentId)).statusCode).toBe(200);
      t.clock.advance(10 * 60_000);

      const again = await markPaid(t, intent.paymentIntentId);

      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ status: 'PAID', studentId: student.id });
      expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
      expect(await paymentsOf(t.db, student.id)).toEqual([
        cardPayment({ studentId: student.id, provider: rig.name, intentId: intent.paymentIntentId, at: paidAt }),
      ]);
    });

    it('pays the enrolment the PaymentIntent was made for, whoever sends the hint', async () => {
      const { student, intent } = await studentWithIntent();
      const bystander = await createStudent(t.db);
      await startPayment(t, bystander.id);
      await rig.setIntent(t, intent.paymentIntentId, { status: 'succeeded' });

      const response = await markPaid(t, intent.paymentIntentId);

      expect(response.json()).toEqual({ status: 'PAID', studentId: student.id });
      await expectUnpaid(t.db, bystander.id);
    });
  });
});

describe('Stripe webhooks (POST /api/public/payment/webhook)', () => {
  const rig = stripeRig();
  let t: TestApp;
  beforeAll(async () => {
    t = await rig.start();
  });
  afterAll(async () => {
    await t.close();
    await rig.stop();
  });

  /** A student whose PaymentIntent Stripe has charged, and the event Stripe posts about it. */
  async function succeededPayment() {
    const student = await createStudent(t.db);
    const { paymentIntentId } = await startPayment(t, student.id);
    const intent = rig.server().setIntent(paymentIntentId, { status: 'succeeded' });
    const payload = buildStripeEvent('payment_intent.succeeded', intent);
    return { student, intent, payload };
  }

  it('makes the student paid on a delivery signed with the webhook secret', async () => {
    const { student, intent, payload } = await succeededPayment();
    const paidAt = t.clock.now();

    const response = await deliverWebhook(t, payload, signStripePayload(payload));

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ handled: 'fulfilled' });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual([
      cardPayment({ studentId: student.id, provider: 'stripe', intentId: intent.id, at: paidAt }),
    ]);
    expect(await eventRecorded(t.db, eventId(payload))).toBe(true);
  });

  it.each<[string, (payload: string) => { body: string; signature: string | undefined }]>([
    ['without a signature', (payload) => ({ body: payload, signature: undefined })],
    [
      'signed with another secret',
      (payload) => ({ body: payload, signature: signStripePayload(payload, { secret: 'whsec_someone_else' }) }),
    ],
    [
      'whose body was changed after signing',
      (payload) => ({
        body: payload.replace(/"id":"evt_[0-9a-f]+"/, '"id":"evt_replayed_with_a_new_id"'),
        signature: signStripePayload(payload),
      }),
    ],
    [
      'signed more than five minutes ago (a replay)',
      (payload) => ({
        body: payload,
        signature: signStripePayload(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      }),
    ],
  ])('refuses a delivery %s with a 400 and changes nothing', async (_case, tamper) => {
    const { student, payload } = await succeededPayment();
    const { body, signature } = tamper(payload);

    const response = await deliverWebhook(t, body, signature);

    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: 'The webhook signature could not be verified.',
        requestId: expect.any(String) as string,
      },
    });
    await expectUnpaid(t.db, student.id);
    expect(await eventRecorded(t.db, eventId(payload))).toBe(false);
    expect(await eventRecorded(t.db, eventId(body))).toBe(false);
  });

  it('fulfils one event delivered ten times at once, alongside the browser’s mark-paid, exactly once', async () => {
    const { student, intent, payload } = await succeededPayment();
    const signature = signStripePayload(payload);
    const paidAt = t.clock.now();

    const [browser, ...deliveries] = await Promise.all([
      markPaid(t, intent.id),
      ...Array.from({ length: 10 }, () => deliverWebhook(t, payload, signature)),
    ]);

    expect(browser?.statusCode).toBe(200);
    expect(deliveries.map((response) => response.statusCode)).toEqual(Array<number>(10).fill(200));
    expect(deliveries.map((response) => response.json<{ handled: string }>().handled).sort()).toEqual([
      ...Array<string>(9).fill('duplicate'),
      'fulfilled',
    ]);
    const onePayment = [cardPayment({ studentId: student.id, provider: 'stripe', intentId: intent.id, at: paidAt })];
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual(onePayment);

    // Later deliveries (Stripe retries, a second event about the same payment, the browser's
    // return visit) leave the first fulfilment as it was.
    t.clock.advance(60_000);
    const retried = await deliverWebhook(t, payload, signStripePayload(payload));
    expect(retried.json()).toEqual({ handled: 'duplicate' });

    t.clock.advance(60_000);
    const another = buildStripeEvent('payment_intent.succeeded', intent);
    expect((await deliverWebhook(t, another, signStripePayload(another))).statusCode).toBe(200);

    t.clock.advance(60_000);
    expect((await markPaid(t, intent.id)).statusCode).toBe(200);

    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual(onePayment);
  });

  it('acknowledges, and ignores, a succeeded PaymentIntent that is not the school’s', async () => {
    const student = await createStudent(t.db);
    const foreign = rig.server().addIntent({
      amount: 2995,
      status: 'succeeded',
      metadata: { studentId: String(student.id) },
    });
    const payload = buildStripeEvent('payment_intent.succeeded', foreign);

    const response = await deliverWebhook(t, payload, signStripePayload(payload));

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ handled: 'ignored' });
    await expectUnpaid(t.db, student.id);
  });

  it('acknowledges, and ignores, a succeeded PaymentIntent of ours for the wrong amount', async () => {
    const { student, intent } = await succeededPayment();
    const payload = buildStripeEvent('payment_intent.succeeded', rig.server().setIntent(intent.id, { amount: 1 }));

    const response = await deliverWebhook(t, payload, signStripePayload(payload));

    expect(response.json()).toEqual({ handled: 'ignored' });
    await expectUnpaid(t.db, student.id);
  });

  it('acknowledges, and ignores, events that are not a successful payment', async () => {
    const student = await createStudent(t.db);
    const { paymentIntentId } = await startPayment(t, student.id);
    const failed = buildStripeEvent(
      'payment_intent.payment_failed',
      rig.server().setIntent(paymentIntentId, { status: 'requires_payment_method' }),
    );
    const customer = buildStripeEvent('customer.created', { id: 'cus_1', object: 'customer' });

    for (const payload of [failed, customer]) {
      const response = await deliverWebhook(t, payload, signStripePayload(payload));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ handled: 'ignored' });
    }
    await expectUnpaid(t.db, student.id);
  });

  it('has no built-in test provider routes', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);

    const confirm = await confirmTestCard(t, intent);
    const retrieve = await t.app.inject({
      method: 'GET',
      url: `/api/test-provider/payment_intents/${intent.paymentIntentId}?client_secret=${intent.clientSecret}`,
    });

    expect([confirm.statusCode, retrieve.statusCode]).toEqual([404, 404]);
    expect(confirm.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    await expectUnpaid(t.db, student.id);
  });
});
