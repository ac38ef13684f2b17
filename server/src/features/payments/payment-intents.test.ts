import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courts, testProviderIntents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourt, createStudent, markStudentPaid } from '../../testing/factories.ts';
import {
  createLocalStripeProvider,
  startStripeApiServer,
  type StripeApiServer,
} from '../../testing/stripe-api-server.ts';
import {
  paymentAmount,
  requestIntent,
  IntentAnswer,
  startPayment,
  markPaid,
  paymentsOf,
  intentRowsOf,
  expectUnpaid,
  cardPayment,
  ENROLMENT_NOT_FOUND,
  testProviderRig,
  stripeRig,
} from '../../testing/payments.ts';

describe('GET /api/public/payment/{studentId}/paymentAmount', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the school’s price in cents, without a session (the payment page runs signed out)', async () => {
    const student = await createStudent(t.db);
    const response = await paymentAmount(t, student.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ paymentAmount: 2995 });
  });

  it('answers the court’s own price once the court has one', async () => {
    const court = await createCourt(t.db);
    const student = await createStudent(t.db, { courtId: court.id });
    expect((await paymentAmount(t, student.id)).json()).toEqual({ paymentAmount: 2995 });

    await t.db.update(courts).set({ priceCents: 3995 }).where(eq(courts.id, court.id));

    expect((await paymentAmount(t, student.id)).json()).toEqual({ paymentAmount: 3995 });
  });

  it('answers a JSON 404 for a student that does not exist', async () => {
    const response = await paymentAmount(t, 987_654);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual(ENROLMENT_NOT_FOUND);
  });

  it('answers a JSON 404 for an archived enrolment', async () => {
    const student = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
    const response = await paymentAmount(t, student.id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(ENROLMENT_NOT_FOUND);
  });

  it.each(['abc', '0', '-4'])('refuses the student id %s with a 400', async (id) => {
    const response = await paymentAmount(t, id);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('the course price with COURSE_PRICE_CENTS set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { COURSE_PRICE_CENTS: '4500' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the configured price', async () => {
    const student = await createStudent(t.db);
    expect((await paymentAmount(t, student.id)).json()).toEqual({ paymentAmount: 4500 });
  });

  it('asks the provider for the configured price', async () => {
    const student = await createStudent(t.db);
    const { paymentIntentId } = await startPayment(t, student.id);
    const [row] = await t.db.select().from(testProviderIntents).where(eq(testProviderIntents.id, paymentIntentId));
    expect(row).toMatchObject({ amount: 4500, currency: 'usd' });
  });

  it('still lets a court’s own price win over the configured one', async () => {
    const court = await createCourt(t.db, { priceCents: 1995 });
    const student = await createStudent(t.db, { courtId: court.id });
    expect((await paymentAmount(t, student.id)).json()).toEqual({ paymentAmount: 1995 });
  });
});

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

  describe('POST /api/public/payment/intent', () => {
    it('gives the payment page a client secret, the PaymentIntent’s id and which card form to show', async () => {
      const student = await createStudent(t.db);
      const response = await requestIntent(t, { studentId: student.id });

      expect(response.statusCode).toBe(200);
      const answer = response.json<IntentAnswer>();
      expect(answer).toEqual({
        clientSecret: expect.stringMatching(new RegExp(`^${answer.paymentIntentId}_secret_.+`)) as string,
        paymentIntentId: expect.stringMatching(/^pi_/) as string,
        provider: rig.name,
        publishableKey: rig.publishableKey,
      });
      expect(await intentRowsOf(t.db, student.id)).toEqual([
        expect.objectContaining({
          id: answer.paymentIntentId,
          provider: rig.name,
          amountCents: 2995,
          currency: 'usd',
          clientSecret: answer.clientSecret,
        }),
      ]);
    });

    it('takes the amount from the server, whatever the browser sends', async () => {
      const court = await createCourt(t.db, { priceCents: 3995 });
      const student = await createStudent(t.db, { courtId: court.id });
      const response = await requestIntent(t, { studentId: student.id, amount: 1, currency: 'jpy' });

      expect(response.statusCode).toBe(200);
      const { paymentIntentId } = response.json<IntentAnswer>();
      await rig.setIntent(t, paymentIntentId, { status: 'succeeded' });
      // The provider's PaymentIntent is for the court's price in dollars: paying it fulfils.
      expect((await markPaid(t, paymentIntentId)).statusCode).toBe(200);
      expect(await paymentsOf(t.db, student.id)).toEqual([
        cardPayment({ studentId: student.id, provider: rig.name, intentId: paymentIntentId, at: t.clock.now() }, 3995),
      ]);
    });

    it('tells the provider the student’s id and nothing personal', async () => {
      const { student, intent } = await studentWithIntent();
      expect(await rig.metadataOf(t, intent.paymentIntentId)).toEqual({ studentId: String(student.id) });
    });

    it('gives a reload the same open PaymentIntent, not a second one', async () => {
      const student = await createStudent(t.db);
      const before = await rig.intentCount(t);

      const first = await startPayment(t, student.id);
      const second = await startPayment(t, student.id);

      expect(second).toEqual(first);
      expect(await intentRowsOf(t.db, student.id)).toHaveLength(1);
      expect(await rig.intentCount(t)).toBe(before + 1);
    });

    it('makes exactly one PaymentIntent per enrolment for requests at once (a double click)', async () => {
      // Several enrolments at once, so that the requests interleave in every order the database allows.
      const clicking = await Promise.all(Array.from({ length: 5 }, () => createStudent(t.db)));
      const before = await rig.intentCount(t);

      const answers = await Promise.all(
        clicking.map((student) => Promise.all([1, 2, 3].map(() => requestIntent(t, { studentId: student.id })))),
      );

      for (const [index, student] of clicking.entries()) {
        const responses = answers[index] ?? [];
        expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
        const ids = new Set(responses.map((response) => response.json<IntentAnswer>().paymentIntentId));
        expect(ids.size, `PaymentIntents for enrolment ${String(student.id)}`).toBe(1);
        expect(await intentRowsOf(t.db, student.id)).toHaveLength(1);
      }
      expect(await rig.intentCount(t)).toBe(before + clicking.length);
    });

    it('replaces a PaymentIntent that was canceled', async () => {
      const { student, intent } = await studentWithIntent();
      await rig.setIntent(t, intent.paymentIntentId, { status: 'canceled' });

      const next = await startPayment(t, student.id);

      expect(next.paymentIntentId).not.toBe(intent.paymentIntentId);
      expect(await intentRowsOf(t.db, student.id)).toHaveLength(2);
    });

    it('asks for a new PaymentIntent at the new price when the court’s price changed since the last visit', async () => {
      const court = await createCourt(t.db);
      const { student, intent } = await studentWithIntent({ courtId: court.id });
      await t.db.update(courts).set({ priceCents: 4995 }).where(eq(courts.id, court.id));

      const next = await startPayment(t, student.id);

      expect(next.paymentIntentId).not.toBe(intent.paymentIntentId);
      expect((await intentRowsOf(t.db, student.id)).map((row) => row.amountCents).sort()).toEqual([2995, 4995]);
    });

    it('refuses a second PaymentIntent while the last one has succeeded but is not fulfilled yet', async () => {
      const { student, intent } = await studentWithIntent();
      await rig.setIntent(t, intent.paymentIntentId, { status: 'succeeded' });
      const before = await rig.intentCount(t);

      const response = await requestIntent(t, { studentId: student.id });

      expect(response.statusCode).toBe(409);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('ALREADY_PAID');
      expect(await rig.intentCount(t)).toBe(before);
    });

    it('refuses a student who has already paid with a 409 ALREADY_PAID', async () => {
      const student = await createStudent(t.db);
      await markStudentPaid(t.db, student.id);
      const before = await rig.intentCount(t);

      const response = await requestIntent(t, { studentId: student.id });

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: {
          code: 'ALREADY_PAID',
          message: 'This course has already been paid for.',
          requestId: expect.any(String) as string,
        },
      });
      expect(await rig.intentCount(t)).toBe(before);
    });

    it('answers 404 for a student that does not exist, or an archived enrolment', async () => {
      const archived = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
      for (const studentId of [987_654, archived.id]) {
        const response = await requestIntent(t, { studentId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(ENROLMENT_NOT_FOUND);
      }
    });
  });
});

describe('POST /api/public/payment/intent on Stripe, when requests overlap', () => {
  const rig = stripeRig();
  let t: TestApp;
  beforeAll(async () => {
    t = await rig.start();
  });
  afterAll(async () => {
    await t.close();
    await rig.stop();
  });

  it('makes one new PaymentIntent for a double click while Stripe is slow to answer about the canceled one', async () => {
    const student = await createStudent(t.db);
    const canceled = await startPayment(t, student.id);
    rig.server().setIntent(canceled.paymentIntentId, { status: 'canceled' });
    const slowRetrieve = rig.server().pauseNext('GET', `/v1/payment_intents/${canceled.paymentIntentId}`);

    // The first click waits on Stripe; the second is answered in full meanwhile.
    const firstClick = requestIntent(t, { studentId: student.id });
    await slowRetrieve.reached;
    const secondClick = await requestIntent(t, { studentId: student.id });
    slowRetrieve.release();
    const first = await firstClick;

    expect([first.statusCode, secondClick.statusCode]).toEqual([200, 200]);
    expect(first.json<IntentAnswer>().paymentIntentId).toBe(secondClick.json<IntentAnswer>().paymentIntentId);
    expect(await intentRowsOf(t.db, student.id)).toHaveLength(2);
    expect(rig.server().intentCount()).toBe(2);
  });
});

describe('one Stripe account behind two databases (a restored backup, a second deployment)', () => {
  let server: StripeApiServer;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    server = await startStripeApiServer();
    first = await buildTestApp({ payments: () => createLocalStripeProvider(server) });
    second = await buildTestApp({ payments: () => createLocalStripeProvider(server) });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await server.close();
  });

  it('never hands an enrolment the PaymentIntent another database made for its student of the same id', async () => {
    const paidElsewhere = await createStudent(first.db);
    const student = await createStudent(second.db);
    // Both databases number their enrolments from 1: the same id, two different people.
    expect(student.id).toBe(paidElsewhere.id);
    const theirs = await startPayment(first, paidElsewhere.id);
    server.setIntent(theirs.paymentIntentId, { status: 'succeeded' });

    const ours = await startPayment(second, student.id);

    expect(ours.paymentIntentId).not.toBe(theirs.paymentIntentId);
    expect(server.getIntent(ours.paymentIntentId).status).toBe('requires_payment_method');
    expect((await markPaid(second, ours.paymentIntentId)).statusCode).toBe(409);
    await expectUnpaid(second.db, student.id);
  });
});
