import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { courts, paymentEvents, paymentIntents, payments, students, testProviderIntents } from '../../db/schema.ts';
import { buildTestApp, sessionCookieFrom, type TestApp } from '../../testing/build-test-app.ts';
import {
  createCourt,
  createStaff,
  createStudent,
  type CreatedStudent,
  markStudentPaid,
  paymentCookieFor,
} from '../../testing/factories.ts';
import {
  buildStripeEvent,
  createLocalStripeProvider,
  type IntentPatch,
  signStripePayload,
  startStripeApiServer,
  STRIPE_TEST_KEYS,
  type StripeApiServer,
} from '../../testing/stripe-api-server.ts';
import { WEBHOOK_PATH } from './payments.routes.ts';

// ---------------------------------------------------------------------------------------------
// Calls, as the payment page, Stripe and the admin screens make them

const paymentAmount = (t: TestApp, studentId: number | string) =>
  t.app.inject({ method: 'GET', url: `/api/public/payment/${String(studentId)}/paymentAmount` });

/** As the payment page of the browser that registered the student asks (decision 048). */
const requestIntent = async (t: TestApp, body: { studentId?: unknown } & Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/payment/intent',
    payload: body,
    ...(typeof body.studentId === 'number'
      ? { headers: { cookie: await paymentCookieFor(t.db, body.studentId) } }
      : {}),
  });

interface IntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
  provider: 'stripe' | 'test';
  publishableKey: string | null;
}

async function startPayment(t: TestApp, studentId: number): Promise<IntentAnswer> {
  const response = await requestIntent(t, { studentId });
  expect(response.statusCode).toBe(200);
  return response.json<IntentAnswer>();
}

const markPaid = (t: TestApp, paymentIntent: string) =>
  t.app.inject({ method: 'POST', url: '/api/public/payment/mark-paid', payload: { paymentIntent } });

const confirmTestCard = (
  t: TestApp,
  intent: { paymentIntentId: string; clientSecret: string },
  card: { card_number?: string; expiry?: string; cvc?: string } = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`,
    payload: {
      client_secret: intent.clientSecret,
      card_number: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      ...card,
    },
  });

/** A webhook delivery as Stripe sends it: its own content type, the signature over the exact bytes. */
const deliverWebhook = (t: TestApp, payload: string, signature: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });

const eventId = (payload: string) => (JSON.parse(payload) as { id: string }).id;

async function signInStudent(t: TestApp, student: CreatedStudent): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/login/student',
    payload: { last_name: student.lastName, dl_number: student.dlNumber },
  });
  expect(response.statusCode).toBe(200);
  return sessionCookieFrom(response);
}

async function signInStaff(t: TestApp, role: StaffRole): Promise<{ id: number; cookie: string }> {
  const member = await createStaff(t.db, { role });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/login/admin',
    payload: { username: member.username, password: member.password },
  });
  expect(response.statusCode).toBe(200);
  return { id: member.id, cookie: sessionCookieFrom(response) };
}

// ---------------------------------------------------------------------------------------------
// What the database says

async function paymentAtOf(db: Db, studentId: number): Promise<Date | null> {
  const [row] = await db.select({ paymentAt: students.paymentAt }).from(students).where(eq(students.id, studentId));
  if (!row) throw new Error(`no student ${String(studentId)}`);
  return row.paymentAt;
}

const paymentsOf = (db: Db, studentId: number) => db.select().from(payments).where(eq(payments.studentId, studentId));

const intentRowsOf = (db: Db, studentId: number) =>
  db.select().from(paymentIntents).where(eq(paymentIntents.studentId, studentId));

async function eventRecorded(db: Db, id: string): Promise<boolean> {
  const rows = await db.select().from(paymentEvents).where(eq(paymentEvents.id, id));
  return rows.length > 0;
}

async function expectUnpaid(db: Db, studentId: number): Promise<void> {
  expect(await paymentAtOf(db, studentId)).toBeNull();
  expect(await paymentsOf(db, studentId)).toEqual([]);
}

/** The one card payment a fulfilled PaymentIntent leaves. */
const cardPayment = (
  fields: { studentId: number; provider: 'stripe' | 'test'; intentId: string; at: Date },
  amountCents = 2995,
) => ({
  id: expect.any(Number) as number,
  studentId: fields.studentId,
  method: 'card',
  provider: fields.provider,
  providerPaymentId: fields.intentId,
  amountCents,
  currency: 'usd',
  manualMethod: null,
  recordedByStaffId: null,
  createdAt: fields.at,
});

const notVerified = (message: string) => ({ error: { code: 'PAYMENT_NOT_VERIFIED', message } });
const ENROLMENT_NOT_FOUND = { error: { code: 'NOT_FOUND', message: 'No enrolment was found for this payment.' } };
const NO_SUCH_PAYMENT = { error: { code: 'NOT_FOUND', message: 'No such payment.' } };

// ---------------------------------------------------------------------------------------------
// The two providers, each with a way to play the customer's (or anyone else's) part

interface ProviderRig {
  readonly name: 'test' | 'stripe';
  readonly publishableKey: string | null;
  start(): Promise<TestApp>;
  stop(): Promise<void>;
  /** Changes the provider's PaymentIntent as a payment (or someone on the account) would. */
  setIntent(t: TestApp, id: string, patch: IntentPatch): Promise<void>;
  /** A PaymentIntent on the provider that this school never asked for. */
  addForeignIntent(t: TestApp, fields: IntentPatch & { amount: number }): Promise<string>;
  /** How many PaymentIntents the provider holds. */
  intentCount(t: TestApp): Promise<number>;
  metadataOf(t: TestApp, id: string): Promise<Record<string, string>>;
}

function testProviderRig(): ProviderRig {
  const findRow = async (t: TestApp, id: string) => {
    const [row] = await t.db.select().from(testProviderIntents).where(eq(testProviderIntents.id, id));
    if (!row) throw new Error(`the test provider has no PaymentIntent ${id}`);
    return row;
  };
  return {
    name: 'test',
    publishableKey: null,
    start: () => buildTestApp(),
    stop: async () => undefined,
    async setIntent(t, id, patch) {
      await findRow(t, id);
      await t.db
        .update(testProviderIntents)
        .set({
          ...(patch.status ? { status: patch.status } : {}),
          ...(patch.amount === undefined ? {} : { amount: patch.amount }),
          ...(patch.currency ? { currency: patch.currency } : {}),
          ...(patch.metadata ? { metadata: JSON.stringify(patch.metadata) } : {}),
        })
        .where(eq(testProviderIntents.id, id));
    },
    async addForeignIntent(t, fields) {
      const id = `pi_test_${randomBytes(12).toString('hex')}`;
      await t.db.insert(testProviderIntents).values({
        id,
        clientSecret: `${id}_secret_x`,
        amount: fields.amount,
        currency: fields.currency ?? 'usd',
        status: fields.status ?? 'requires_payment_method',
        metadata: JSON.stringify(fields.metadata ?? {}),
        idempotencyKey: `someone-else-${id}`,
      });
      return id;
    },
    async intentCount(t) {
      const [row] = await t.db.select({ n: count() }).from(testProviderIntents);
      return row?.n ?? 0;
    },
    async metadataOf(t, id) {
      return JSON.parse((await findRow(t, id)).metadata) as Record<string, string>;
    },
  };
}

function stripeRig(): ProviderRig & { server(): StripeApiServer } {
  let server: StripeApiServer | undefined;
  const running = () => {
    if (!server) throw new Error('the Stripe test server is not running');
    return server;
  };
  return {
    name: 'stripe',
    publishableKey: STRIPE_TEST_KEYS.publishableKey,
    server: running,
    async start() {
      const started = await startStripeApiServer();
      server = started;
      return buildTestApp({ payments: () => createLocalStripeProvider(started) });
    },
    async stop() {
      await server?.close();
    },
    setIntent: async (_t, id, patch) => {
      running().setIntent(id, patch);
    },
    addForeignIntent: async (_t, fields) => running().addIntent(fields).id,
    intentCount: async () => running().intentCount(),
    metadataOf: async (_t, id) => running().getIntent(id).metadata,
  };
}

// ---------------------------------------------------------------------------------------------

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
        error: { code: 'ALREADY_PAID', message: 'This course has already been paid for.' },
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
      error: { code: 'BAD_REQUEST', message: 'The webhook signature could not be verified.' },
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
        error: { code: 'CARD_DECLINED', type: 'card_error', provider_code: 'card_declined', message },
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

describe('POST /api/admin/markPaid/{studentId} (money received another way)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const markPaidByStaff = (studentId: number, cookie?: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/markPaid/${String(studentId)}`,
      payload,
      ...(cookie ? { headers: { cookie } } : {}),
    });

  it('refuses a caller who is not signed in with a 401', async () => {
    const student = await createStudent(t.db);
    const response = await markPaidByStaff(student.id);
    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('UNAUTHENTICATED');
    await expectUnpaid(t.db, student.id);
  });

  it('refuses a student with a 403', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInStudent(t, student);
    const response = await markPaidByStaff(student.id, cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
    await expectUnpaid(t.db, student.id);
  });

  it.each(['admin', 'clerk'] as const)('refuses the role %s with a 403 (only a super_admin may)', async (role) => {
    const student = await createStudent(t.db);
    const { cookie } = await signInStaff(t, role);
    const response = await markPaidByStaff(student.id, cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
    await expectUnpaid(t.db, student.id);
  });

  it('lets a super_admin mark a student paid, recording who did it and when', async () => {
    const student = await createStudent(t.db);
    const superAdmin = await signInStaff(t, 'super_admin');
    const paidAt = t.clock.now();

    const response = await markPaidByStaff(student.id, superAdmin.cookie);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual([
      {
        id: expect.any(Number) as number,
        studentId: student.id,
        method: 'manual',
        provider: null,
        providerPaymentId: null,
        // Issue 19: without an amount, the course price for the student's court (the school's here).
        amountCents: t.config.coursePriceCents,
        currency: 'usd',
        manualMethod: null,
        recordedByStaffId: superAdmin.id,
        createdAt: paidAt,
      },
    ]);
  });

  it('records the amount taken and how, the court’s own price by default, and a waived course as zero (issue 19)', async () => {
    const superAdmin = await signInStaff(t, 'super_admin');
    const court = await createCourt(t.db, { priceCents: 3995 });
    const byCheque = await createStudent(t.db, { courtId: court.id });
    await markPaidByStaff(byCheque.id, superAdmin.cookie, { manual_method: 'cheque' });
    const byPhone = await createStudent(t.db);
    await markPaidByStaff(byPhone.id, superAdmin.cookie, { manual_method: 'phone', amount_cents: 2500 });
    const waived = await createStudent(t.db, { courtId: court.id });
    await markPaidByStaff(waived.id, superAdmin.cookie, { manual_method: 'waived', amount_cents: 3995 });

    const recorded = async (id: number) =>
      (await paymentsOf(t.db, id)).map((row) => [row.manualMethod, row.amountCents]);
    expect(await recorded(byCheque.id)).toEqual([['cheque', 3995]]);
    expect(await recorded(byPhone.id)).toEqual([['phone', 2500]]);
    expect(await recorded(waived.id)).toEqual([['waived', 0]]);
  });

  it('records the super_admin of the session, not a userId in the body', async () => {
    const student = await createStudent(t.db);
    const superAdmin = await signInStaff(t, 'super_admin');
    const someoneElse = await createStaff(t.db, { role: 'super_admin' });

    await markPaidByStaff(student.id, superAdmin.cookie, { userId: someoneElse.id });

    expect((await paymentsOf(t.db, student.id)).map((row) => row.recordedByStaffId)).toEqual([superAdmin.id]);
  });

  it('changes nothing when a paid student is marked again', async () => {
    const student = await createStudent(t.db);
    const { cookie } = await signInStaff(t, 'super_admin');
    const paidAt = t.clock.now();
    await markPaidByStaff(student.id, cookie);
    t.clock.advance(3600_000);

    const again = await markPaidByStaff(student.id, cookie);

    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toHaveLength(1);
  });

  it('records no manual payment for a student who already paid by card', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    await confirmTestCard(t, intent);
    const paidAt = t.clock.now();
    const { cookie } = await signInStaff(t, 'super_admin');
    t.clock.advance(3600_000);

    const response = await markPaidByStaff(student.id, cookie);

    expect(response.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect((await paymentsOf(t.db, student.id)).map((row) => row.method)).toEqual(['card']);
  });

  it('answers 404 for a student that does not exist, or an archived enrolment', async () => {
    const archived = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
    const { cookie } = await signInStaff(t, 'super_admin');
    for (const studentId of [987_654, archived.id]) {
      const response = await markPaidByStaff(studentId, cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    }
    await expectUnpaid(t.db, archived.id);
  });
});

describe('course calls need a paid student (402)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const listChapters = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/content/chapters', ...(cookie ? { headers: { cookie } } : {}) });

  it('answers an unpaid student with a JSON 402 PAYMENT_REQUIRED', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInStudent(t, student);

    const response = await listChapters(cookie);

    expect(response.statusCode).toBe(402);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: { code: 'PAYMENT_REQUIRED', message: 'Please pay for the course to continue.' },
    });
  });

  it('opens the course to the same session as soon as the student has paid', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInStudent(t, student);
    expect((await listChapters(cookie)).statusCode).toBe(402);

    await confirmTestCard(t, await startPayment(t, student.id));
    const response = await listChapters(cookie);

    expect(response.statusCode).toBe(200);
    expect(response.json<{ id: number }[]>().map((chapter) => chapter.id)).toEqual([1, 2, 3, 4, 6]);
  });

  it('refuses a caller who is not signed in with a 401', async () => {
    const response = await listChapters();
    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses staff with a 403 (the course is for students)', async () => {
    const { cookie } = await signInStaff(t, 'super_admin');
    const response = await listChapters(cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
  });
});
