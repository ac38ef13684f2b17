import { randomBytes } from 'node:crypto';
import { asc, count, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { StaffRole } from '@ts/contract';
import type { Db } from '../db/client.ts';
import { selectRawRows } from '../db/raw-rows.ts';
import { paymentEvents, paymentIntents, payments, refunds, students, testProviderIntents } from '../db/schema.ts';
import { WEBHOOK_PATH } from '../features/payments/payments.routes.ts';
import { buildTestApp, sessionCookieFrom, type TestApp } from './build-test-app.ts';
import { createStaff, createStudent, type CreatedStudent, paymentCookieFor } from './factories.ts';
import {
  createLocalStripeProvider,
  type IntentPatch,
  startStripeApiServer,
  STRIPE_TEST_KEYS,
  type StripeApiServer,
} from './stripe-api-server.ts';

/** The payments tests' calls, checks and provider rigs (features/payments/*.test.ts). */

// ---------------------------------------------------------------------------------------------
// Calls, as the payment page, Stripe and the admin screens make them

export const paymentAmount = (t: TestApp, studentId: number | string) =>
  t.app.inject({ method: 'GET', url: `/api/public/payment/${String(studentId)}/paymentAmount` });

/** As the payment page of the browser that registered the student asks (decision 048). */
export const requestIntent = async (t: TestApp, body: { studentId?: unknown } & Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/payment/intent',
    payload: body,
    ...(typeof body.studentId === 'number'
      ? { headers: { cookie: await paymentCookieFor(t.db, body.studentId) } }
      : {}),
  });

export interface IntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
  provider: 'stripe' | 'test';
  publishableKey: string | null;
}

export async function startPayment(t: TestApp, studentId: number): Promise<IntentAnswer> {
  const response = await requestIntent(t, { studentId });
  expect(response.statusCode).toBe(200);
  return response.json<IntentAnswer>();
}

export const markPaid = (t: TestApp, paymentIntent: string) =>
  t.app.inject({ method: 'POST', url: '/api/public/payment/mark-paid', payload: { paymentIntent } });

export const confirmTestCard = (
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
export const deliverWebhook = (t: TestApp, payload: string, signature: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });

export const eventId = (payload: string) => (JSON.parse(payload) as { id: string }).id;

export async function signInAsStudent(t: TestApp, student: CreatedStudent): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/login/student',
    payload: { last_name: student.lastName, dl_number: student.dlNumber },
  });
  expect(response.statusCode).toBe(200);
  return sessionCookieFrom(response);
}

export async function signInAsStaff(t: TestApp, role: StaffRole): Promise<{ id: number; cookie: string }> {
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

export async function paymentAtOf(db: Db, studentId: number): Promise<Date | null> {
  const [row] = await db.select({ paymentAt: students.paymentAt }).from(students).where(eq(students.id, studentId));
  if (!row) throw new Error(`no student ${String(studentId)}`);
  return row.paymentAt;
}

export const paymentsOf = (db: Db, studentId: number) =>
  db.select().from(payments).where(eq(payments.studentId, studentId));

export const intentRowsOf = (db: Db, studentId: number) =>
  db.select().from(paymentIntents).where(eq(paymentIntents.studentId, studentId));

export async function eventRecorded(db: Db, id: string): Promise<boolean> {
  const rows = await db.select().from(paymentEvents).where(eq(paymentEvents.id, id));
  return rows.length > 0;
}

export async function expectUnpaid(db: Db, studentId: number): Promise<void> {
  expect(await paymentAtOf(db, studentId)).toBeNull();
  expect(await paymentsOf(db, studentId)).toEqual([]);
}

/** The one card payment a fulfilled PaymentIntent leaves. */
export const cardPayment = (
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
  // Stripe's 4242 test card pays in both providers (decision 058).
  cardLast4: '4242',
  createdAt: fields.at,
});

export const notVerified = (message: string) => ({
  error: { code: 'PAYMENT_NOT_VERIFIED', message, requestId: expect.any(String) as string },
});
export const ENROLMENT_NOT_FOUND = {
  error: {
    code: 'NOT_FOUND',
    message: 'No enrolment was found for this payment.',
    requestId: expect.any(String) as string,
  },
};
export const NO_SUCH_PAYMENT = {
  error: { code: 'NOT_FOUND', message: 'No such payment.', requestId: expect.any(String) as string },
};

// ---------------------------------------------------------------------------------------------
// The two providers, each with a way to play the customer's (or anyone else's) part

export interface ProviderRig {
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

export function testProviderRig(): ProviderRig {
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

export function stripeRig(): ProviderRig & { server(): StripeApiServer } {
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
// Refunds and receipts (decision 058)

/** A student who paid the course by card through the test provider (or the rig's provider, for Stripe). */
export async function paidByCard(
  t: TestApp,
  overrides: Parameters<typeof createStudent>[1] = {},
  stripe?: StripeApiServer,
): Promise<CreatedStudent & { paymentId: number; intentId: string }> {
  const student = await createStudent(t.db, overrides);
  const intent = await startPayment(t, student.id);
  if (stripe) {
    stripe.setIntent(intent.paymentIntentId, { status: 'succeeded' });
    expect((await markPaid(t, intent.paymentIntentId)).statusCode).toBe(200);
  } else {
    expect((await confirmTestCard(t, intent)).statusCode).toBe(200);
  }
  const [payment] = await paymentsOf(t.db, student.id);
  if (!payment) throw new Error('the card payment was not recorded');
  return { ...student, paymentId: payment.id, intentId: intent.paymentIntentId };
}

/** POST /api/admin/students/:id/refunds as this staff session. */
export const refundStudent = (
  t: TestApp,
  cookie: string,
  studentId: number,
  body: { amount_cents?: number; reason?: string },
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${String(studentId)}/refunds`,
    headers: { cookie },
    payload: body,
  });

/** The refunds recorded for a student's payments, oldest first. */
export const refundsOf = (db: Db, studentId: number) =>
  db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.studentId, studentId))
    .orderBy(asc(refunds.id))
    .then((rows) => rows.map((row) => row.refund));

/** The emails queued under a key (the email outbox, decision 056). */
export const queuedEmails = (db: Db, key: string) =>
  selectRawRows<{ recipient: string; language: string; subject: string; text_body: string }>(
    db,
    sql`select recipient, language, subject, text_body from email_outbox where dedupe_key = ${key}`,
  );
