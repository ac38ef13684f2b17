import type { ManualPayment } from '@ts/contract';
import { recordAudit } from '../audit/audit.service.ts';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { selectPreparedStatementRows } from '../../db/raw-rows.ts';
import { OUTER_STUDENT_ID, parseJsonColumn } from '../../db/subquery-columns.ts';
import { courts, paymentEvents, paymentIntents, payments, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PaymentProvider, ProviderIntent } from '../../platform/payments/provider.ts';
import { AppError, notFound } from '../../plugins/errors.ts';

export const CURRENCY = 'usd';

/** Statuses in which a PaymentIntent can still be paid, so a new visit reuses it. */
const OPEN_STATUSES = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

const alreadyPaid = () => new AppError('ALREADY_PAID', 'This course has already been paid for.');
const notVerified = (message: string) => new AppError('PAYMENT_NOT_VERIFIED', message);

// The queries of a card payment are prepared once (issue 15): every student pays once, and a
// thousand may arrive within a minute.

/** The active enrolment a payment is for, with its court's price, and `more` columns. */
function selectPayingStudent<More extends Record<string, SQL.Aliased | SQL>>(database: Db, more: More) {
  return database
    .select({
      id: students.id,
      paymentAt: students.paymentAt,
      createdAt: students.createdAt,
      courtPrice: courts.priceCents,
      ...more,
    })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(and(eq(students.id, sql.placeholder('studentId')), isNull(students.archivedAt)));
}

async function getActiveStudent(db: Db, studentId: number) {
  const [row] = await prepareOnce(db, 'find_paying_student', (database) =>
    selectPayingStudent(database, {}).prepare('find_paying_student'),
  ).execute({ studentId });
  if (!row) throw notFound('No enrolment was found for this payment.');
  return row;
}

/** Spec 9: amounts are cents. The student's court may override the school's price. */
export async function getPaymentAmount(
  db: Db,
  input: { studentId: number; defaultPriceCents: number },
): Promise<number> {
  const student = await getActiveStudent(db, input.studentId);
  return student.courtPrice ?? input.defaultPriceCents;
}

/**
 * Gives the payment page a PaymentIntent for this enrolment: the open one if there is one (so a
 * reload or a double click makes no second charge), otherwise a new one. Amount and currency come
 * from the server; the metadata holds only ids.
 */
export async function preparePaymentIntent(
  db: Db,
  provider: PaymentProvider,
  input: { studentId: number; defaultPriceCents: number },
): Promise<ProviderIntent> {
  // The enrolment, how many intents it was given and its latest with this provider, in one
  // statement (one snapshot): a request that counts an intent another just inserted also finds it,
  // so two requests never end up with two different keys.
  const [student] = await prepareOnce(
    db,
    'find_paying_student_intents',
    (database) =>
      selectPayingStudent(database, {
        attempts: sql<number>`(select count(*) from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID})`.mapWith(
          Number,
        ),
        latest: sql<{
          id: string;
          amountCents: number;
        } | null>`(select json_build_object('id', id, 'amountCents', amount_cents)
          from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID} and provider = ${sql.placeholder('provider')}::text
          order by created_at desc limit 1)`.mapWith(
          (value: unknown) => parseJsonColumn(value) as { id: string; amountCents: number } | null,
        ),
      }).prepare('find_paying_student_intents'),
    // A public call's first statement (decision 034).
    { opensCall: true },
  ).execute({ studentId: input.studentId, provider: provider.name });
  if (!student) throw notFound('No enrolment was found for this payment.');
  if (student.paymentAt) throw alreadyPaid();
  const { attempts, latest } = student;
  const amount = student.courtPrice ?? input.defaultPriceCents;

  if (latest && latest.amountCents === amount) {
    const current = await provider.retrieveIntent(latest.id);
    if (current && OPEN_STATUSES.has(current.status)) return current;
    if (current?.status === 'succeeded' || current?.status === 'processing') {
      // Paid (or being paid) already; the webhook or the return visit will fulfil it.
      throw alreadyPaid();
    }
  }

  // Two requests at once count the same attempts, so they send the same idempotency key and the
  // provider answers both with one PaymentIntent. The enrolment's creation time makes the key
  // unique beyond this database (a restored backup or another install reuses ids; Stripe keeps
  // keys per account for a day).
  const idempotencyKey = `enrolment-${String(student.id)}-${String(student.createdAt.getTime())}-attempt-${String(attempts + 1)}`;
  const intent = await provider.createIntent({
    amount,
    currency: CURRENCY,
    metadata: { studentId: String(student.id) },
    idempotencyKey,
  });
  await prepareOnce(db, 'insert_payment_intent', (database) =>
    database
      .insert(paymentIntents)
      .values({
        id: sql.placeholder('id'),
        studentId: sql.placeholder('studentId'),
        provider: sql.placeholder('provider'),
        amountCents: sql.placeholder('amountCents'),
        currency: sql.placeholder('currency'),
        clientSecret: sql.placeholder('clientSecret'),
        idempotencyKey: sql.placeholder('idempotencyKey'),
      })
      .onConflictDoNothing()
      .prepare('insert_payment_intent'),
  ).execute({
    id: intent.id,
    studentId: student.id,
    provider: provider.name,
    amountCents: amount,
    currency: CURRENCY,
    clientSecret: intent.clientSecret,
    idempotencyKey,
  });
  return intent;
}

/**
 * The one place a card payment makes a student paid. The provider's PaymentIntent is trusted
 * only if it succeeded, is one this school created for that enrolment, and carries the amount and
 * currency asked for. Idempotent: one payment row per PaymentIntent (unique), one "paid" per
 * enrolment, whatever the order or the number of deliveries.
 */
export async function fulfilPayment(
  db: Db,
  { clock, provider }: { clock: Clock; provider: PaymentProvider },
  intent: ProviderIntent,
): Promise<{ studentId: number }> {
  if (intent.status !== 'succeeded') throw notVerified('This payment has not succeeded.');
  // The intent this school recorded, and the payment with the enrolment's "paid" written only if
  // the provider's intent matches it: one statement (issue 15: every payment is confirmed twice,
  // by the provider and by the browser's return), so both or neither are written.
  const [expected] = await selectPreparedStatementRows<{
    student_id: number;
    amount_cents: number;
    currency: string;
    matched: boolean;
  }>(
    db,
    'record_card_payment',
    () => sql`with expected as (
        select student_id, amount_cents, currency from ${paymentIntents}
        where id = ${sql.placeholder('intentId')}::text and provider = ${sql.placeholder('provider')}::text
      ), matching as (
        select student_id from expected
        where student_id::text = ${sql.placeholder('metadataStudentId')}::text
          and amount_cents = ${sql.placeholder('amount')}::int and currency = ${sql.placeholder('currency')}::text
      ), recorded as (
        insert into ${payments} (student_id, method, provider, provider_payment_id, amount_cents, currency, created_at)
        select student_id, 'card', ${sql.placeholder('provider')}::text, ${sql.placeholder('intentId')}::text,
          ${sql.placeholder('amount')}::int, ${sql.placeholder('currency')}::text, ${sql.placeholder('now')}::timestamptz
        from matching
        on conflict (provider_payment_id) do nothing
      ), paid as (
        update ${students} set payment_at = ${sql.placeholder('now')}::timestamptz
        where id = (select student_id from matching) and payment_at is null
      )
      select student_id, amount_cents, currency, exists (select 1 from matching) as matched from expected`,
    {
      intentId: intent.id,
      provider: provider.name,
      metadataStudentId: intent.metadata.studentId ?? null,
      amount: intent.amount,
      currency: intent.currency,
      now: clock.now().toISOString(),
    },
  );
  // The statement decides (`matched`); these only say why it wrote nothing.
  if (expected?.matched) return { studentId: expected.student_id };
  if (!expected) throw notVerified('This payment does not belong to an enrolment of this school.');
  if (intent.metadata.studentId !== String(expected.student_id)) {
    throw notVerified('This payment belongs to another enrolment.');
  }
  throw notVerified('This payment is not for the course price.');
}

/** Spec 4: the browser's "mark as paid" after the redirect is a hint; the provider has the last word. */
export async function fulfilPaymentFromBrowser(
  db: Db,
  context: { clock: Clock; provider: PaymentProvider },
  input: { paymentIntentId: string },
): Promise<{ studentId: number }> {
  const intent = await context.provider.retrieveIntent(input.paymentIntentId);
  if (!intent) throw notFound('No such payment.');
  return fulfilPayment(db, context, intent);
}

/**
 * A webhook delivery: the signature is checked on the raw body, each event is handled once, and
 * payment_intent.succeeded fulfils. An event about a payment that is not ours, or not right, is
 * recorded and acknowledged (the provider would otherwise retry it for days) but changes nothing.
 */
export async function handlePaymentWebhook(
  db: Db,
  { clock, provider }: { clock: Clock; provider: PaymentProvider },
  delivery: { rawBody: Buffer; signature: string | undefined },
): Promise<{ handled: 'fulfilled' | 'duplicate' | 'ignored' }> {
  const event = provider.parseWebhook(delivery.rawBody, delivery.signature);
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type, receivedAt: clock.now() })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!fresh) return { handled: 'duplicate' as const };
    if (event.type !== 'payment_intent.succeeded' || !event.intent) return { handled: 'ignored' as const };
    try {
      await fulfilPayment(tx, { clock, provider }, event.intent);
      return { handled: 'fulfilled' as const };
    } catch (error) {
      if (error instanceof AppError && error.code === 'PAYMENT_NOT_VERIFIED') return { handled: 'ignored' as const };
      throw error;
    }
  });
}

/**
 * Spec 4: a super_admin marks an unpaid student as paid (money received another way). The
 * payment is recorded with who and when; marking a paid student again changes nothing.
 */
export async function markStudentPaidManually(
  db: Db,
  clock: Clock,
  input: { studentId: number; staffId: number; payment: ManualPayment; defaultPriceCents: number },
): Promise<{ studentId: number; paymentAt: Date }> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const [marked] = await tx
      .update(students)
      .set({ paymentAt: now })
      .where(and(eq(students.id, input.studentId), isNull(students.archivedAt), isNull(students.paymentAt)))
      .returning({ id: students.id, paymentAt: students.paymentAt });
    if (marked?.paymentAt) {
      const amountCents = await manualAmount(tx, input);
      await tx.insert(payments).values({
        studentId: marked.id,
        method: 'manual',
        manualMethod: input.payment.manual_method ?? null,
        amountCents,
        currency: 'usd',
        recordedByStaffId: input.staffId,
        createdAt: now,
      });
      await recordAudit(tx, clock, {
        staffId: input.staffId,
        action: 'mark_paid',
        entityType: 'student',
        entityId: marked.id,
        before: { payment_at: null },
        after: {
          payment_at: marked.paymentAt.toISOString(),
          payment_method: 'manual',
          manual_method: input.payment.manual_method ?? null,
          amount_cents: amountCents,
        },
      });
      return { studentId: marked.id, paymentAt: marked.paymentAt };
    }
    const [existing] = await tx
      .select({ id: students.id, paymentAt: students.paymentAt })
      .from(students)
      .where(and(eq(students.id, input.studentId), isNull(students.archivedAt)));
    if (!existing?.paymentAt) throw notFound('No enrolment was found for this student.');
    return { studentId: existing.id, paymentAt: existing.paymentAt };
  });
}

/**
 * Records the payment of a student enrolled by hand (spec 7's backdoor): a manual payment by the
 * staff member, inside the enrolment's transaction.
 */
export async function recordManualEnrolmentPayment(
  tx: Db,
  input: { studentId: number; staffId: number; at: Date; payment: ManualPayment; defaultPriceCents: number },
): Promise<void> {
  await tx.insert(payments).values({
    studentId: input.studentId,
    method: 'manual',
    manualMethod: input.payment.manual_method ?? null,
    amountCents: await manualAmount(tx, input),
    currency: 'usd',
    recordedByStaffId: input.staffId,
    createdAt: input.at,
  });
}

/**
 * Issue 19: what a payment taken by hand brought: nothing when the course is waived, the amount
 * staff typed, or else the course price for the student's court.
 */
async function manualAmount(
  db: Db,
  input: { studentId: number; payment: ManualPayment; defaultPriceCents: number },
): Promise<number> {
  if (input.payment.manual_method === 'waived') return 0;
  if (input.payment.amount_cents !== undefined) return input.payment.amount_cents;
  const [row] = await db
    .select({ courtPrice: courts.priceCents })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(students.id, input.studentId));
  return row?.courtPrice ?? input.defaultPriceCents;
}
