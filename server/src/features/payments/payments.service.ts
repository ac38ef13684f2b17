import type { ManualPayment } from '@ts/contract';
import { recordAudit } from '../audit/audit.service.ts';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { selectPreparedStatementRows } from '../../db/raw-rows.ts';
import { OUTER_STUDENT_ID, parseJsonColumn } from '../../db/subquery-columns.ts';
import { courts, paymentEvents, paymentIntents, payments, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { IntentStatus, PaymentProvider, ProviderIntent } from '../../platform/payments/provider.ts';
import { AppError, notFound } from '../../plugins/errors.ts';

export const CURRENCY = 'usd';

/** Statuses in which a PaymentIntent can still be paid: a new visit reuses it or cancels it. */
const OPEN_STATUSES = new Set<IntentStatus>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
]);
/** Of those, the ones a new visit may hand to the card form again. */
const REUSABLE_STATUSES = new Set<IntentStatus>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]);
/**
 * The status in which the money is taken: no other intent is offered. `processing` is not paid
 * (decision 048): a payment that may yet fail does not stop the student paying again, and if both
 * settle the later one is recorded for a refund (decision 042's path).
 */
const PAID_STATUS: IntentStatus = 'succeeded';

interface RecordedIntent {
  id: string;
  amountCents: number;
}

const alreadyPaid = () => new AppError('ALREADY_PAID', 'This course has already been paid for.');
/** Decision 042: money that came for an enrolment already paid or archived is kept, not celebrated. */
const paidBeforeThisPayment = () =>
  new AppError(
    'ALREADY_PAID',
    'This course was already paid for, or replaced, when this payment arrived. The payment is recorded for a refund.',
  );

/** Where a payment that needs a person (a refund, a provider that did not answer) is reported. */
export interface PaymentLog {
  warn: (object: object, message: string) => void;
}

/** What the payment flows need beside the database. */
export interface PaymentContext {
  clock: Clock;
  provider: PaymentProvider;
  log: PaymentLog;
}
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
 * Gives the payment page a PaymentIntent for this enrolment: the open one for the current price if
 * there is one (so a reload or a double click makes no second charge), otherwise a new one. Every
 * other open intent of the enrolment is canceled first (decision 042: a pay tab left open at an old
 * price cannot be paid beside the new one), and none is made while an older one has succeeded (it
 * is fulfilled) or is processing. Amount and currency come from the server; the metadata holds only ids.
 */
export async function preparePaymentIntent(
  db: Db,
  context: PaymentContext,
  input: { studentId: number; defaultPriceCents: number },
): Promise<ProviderIntent> {
  const { provider } = context;
  // The enrolment, how many intents it was given and those with this provider (newest first), in
  // one statement (one snapshot): a request that counts an intent another just inserted also finds
  // it, so two requests never end up with two different keys.
  const [student] = await prepareOnce(
    db,
    'find_paying_student_intents',
    (database) =>
      selectPayingStudent(database, {
        attempts: sql<number>`(select count(*) from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID})`.mapWith(
          Number,
        ),
        intents: sql<
          RecordedIntent[]
        >`(select coalesce(json_agg(json_build_object('id', id, 'amountCents', amount_cents)
            order by created_at desc, id desc), '[]'::json)
          from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID} and provider = ${sql.placeholder('provider')}::text)`.mapWith(
          (value: unknown) => parseJsonColumn(value) as RecordedIntent[],
        ),
      }).prepare('find_paying_student_intents'),
    // A public call's first statement (decision 034).
    { opensCall: true },
  ).execute({ studentId: input.studentId, provider: provider.name });
  if (!student) throw notFound('No enrolment was found for this payment.');
  if (student.paymentAt) throw alreadyPaid();
  const { attempts, intents } = student;
  const amount = student.courtPrice ?? input.defaultPriceCents;

  // Asked of the provider together: with Stripe each is a round trip of its own.
  const retrieved = await Promise.all(
    intents.map(async (recorded) => ({ recorded, intent: await provider.retrieveIntent(recorded.id) })),
  );
  const held = retrieved.flatMap(({ recorded, intent }) => (intent ? [{ recorded, intent }] : []));
  const open = held.filter(({ intent }) => OPEN_STATUSES.has(intent.status));
  let reusable = open.find(
    ({ recorded, intent }) =>
      REUSABLE_STATUSES.has(intent.status) && recorded.amountCents === amount && intent.amount === amount,
  );
  const settled = held.filter(({ intent }) => intent.status === PAID_STATUS).map(({ intent }) => intent);
  // Paid already: every open intent goes too, and the page is told so.
  if (settled.length > 0) reusable = undefined;
  for (const { intent } of open) {
    if (intent === reusable?.intent) continue;
    const after = await provider.cancelIntent(intent.id);
    if (after?.status === PAID_STATUS) settled.push(after);
  }
  if (settled.length > 0) {
    for (const intent of settled) await fulfilPayment(db, context, intent);
    throw alreadyPaid();
  }
  if (reusable) return reusable.intent;

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
 *
 * Decision 042: money that arrives for an enrolment already paid another way (an earlier payment)
 * or archived is still recorded, never lost, but it does not pay (an archived enrolment stays
 * unpaid), `surplus` says so, and its first recording is logged at warn level for a refund.
 */
export async function fulfilPayment(
  db: Db,
  { clock, provider, log }: PaymentContext,
  intent: ProviderIntent,
): Promise<{ studentId: number; surplus: boolean }> {
  if (intent.status !== 'succeeded') throw notVerified('This payment has not succeeded.');
  // The intent this school recorded, and the payment with the enrolment's "paid" written only if
  // the provider's intent matches it: one statement (issue 15: every payment is confirmed twice,
  // by the provider and by the browser's return), so both or neither are written.
  const [expected] = await selectPreparedStatementRows<{
    student_id: number;
    amount_cents: number;
    currency: string;
    matched: boolean;
    surplus: boolean;
    payment_id: number | null;
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
      ), prior as (
        select id from ${payments} where provider_payment_id = ${sql.placeholder('intentId')}::text
      ), surplus as (
        -- Another payment came first, or the enrolment was archived before this one arrived (a
        -- payment recorded before the archiving set payment_at).
        select exists (
          select 1 from ${payments} p where p.student_id = (select student_id from matching)
            and p.provider_payment_id is distinct from ${sql.placeholder('intentId')}::text
            and p.id < coalesce((select id from prior), 2147483647)
        ) or exists (
          select 1 from ${students} s where s.id = (select student_id from matching) and s.archived_at is not null
            and (s.payment_at is null or not exists (select 1 from prior))
        ) as surplus
      ), recorded as (
        insert into ${payments} (student_id, method, provider, provider_payment_id, amount_cents, currency, created_at)
        select student_id, 'card', ${sql.placeholder('provider')}::text, ${sql.placeholder('intentId')}::text,
          ${sql.placeholder('amount')}::int, ${sql.placeholder('currency')}::text, ${sql.placeholder('now')}::timestamptz
        from matching
        on conflict (provider_payment_id) do nothing
        returning id
      ), paid as (
        update ${students} set payment_at = ${sql.placeholder('now')}::timestamptz
        where id = (select student_id from matching) and payment_at is null and archived_at is null
          and not (select surplus from surplus)
      )
      select student_id, amount_cents, currency, exists (select 1 from matching) as matched,
        coalesce((select surplus from surplus), false) as surplus, (select id from recorded) as payment_id
      from expected`,
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
  if (expected?.matched) {
    if (expected.surplus && expected.payment_id !== null) {
      log.warn(
        {
          paymentId: expected.payment_id,
          paymentIntentId: intent.id,
          studentId: expected.student_id,
          amountCents: intent.amount,
          currency: intent.currency,
        },
        'card payment received for an enrolment already paid or archived: recorded, refund it',
      );
    }
    return { studentId: expected.student_id, surplus: expected.surplus };
  }
  if (!expected) throw notVerified('This payment does not belong to an enrolment of this school.');
  if (intent.metadata.studentId !== String(expected.student_id)) {
    throw notVerified('This payment belongs to another enrolment.');
  }
  throw notVerified('This payment is not for the course price.');
}

/**
 * Spec 4: the browser's "mark as paid" after the redirect is a hint; the provider has the last word.
 * A payment that came after the enrolment was paid or archived is answered as already paid.
 */
export async function fulfilPaymentFromBrowser(
  db: Db,
  context: PaymentContext,
  input: { paymentIntentId: string },
): Promise<{ studentId: number }> {
  const intent = await context.provider.retrieveIntent(input.paymentIntentId);
  if (!intent) throw notFound('No such payment.');
  const { studentId, surplus } = await fulfilPayment(db, context, intent);
  if (surplus) throw paidBeforeThisPayment();
  return { studentId };
}

/** What the test provider's confirmation does once the card was charged (as Stripe's webhook would). */
export async function fulfilConfirmedPayment(db: Db, context: PaymentContext, intent: ProviderIntent): Promise<void> {
  const { surplus } = await fulfilPayment(db, context, intent);
  if (surplus) throw paidBeforeThisPayment();
}

/**
 * Decision 042: cancels the enrolment's open PaymentIntents (marked paid by hand, archived), so a
 * pay tab still open cannot take the money again. Best effort towards the provider (a failure is
 * logged, the caller goes on; a payment that still comes is kept by fulfilPayment), and never
 * loses money: an intent the provider says already succeeded is fulfilled instead.
 */
export async function cancelOpenPaymentIntents(db: Db, context: PaymentContext, studentId: number): Promise<void> {
  const { provider, log } = context;
  const recorded = await db
    .select({ id: paymentIntents.id })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.studentId, studentId),
        eq(paymentIntents.provider, provider.name),
        sql`not exists (select 1 from ${payments} where ${payments.providerPaymentId} = ${paymentIntents.id})`,
      ),
    );
  for (const { id } of recorded) {
    try {
      const intent = await provider.cancelIntent(id);
      if (intent?.status === 'succeeded') await fulfilPayment(db, context, intent);
    } catch (error) {
      log.warn(
        { err: error, paymentIntentId: id, studentId },
        'could not cancel an open payment intent; a payment that still comes is recorded for a refund',
      );
    }
  }
}

/**
 * A webhook delivery: the signature is checked on the raw body, each event is handled once, and
 * payment_intent.succeeded fulfils. An event about a payment that is not ours, or not right, is
 * recorded and acknowledged (the provider would otherwise retry it for days) but changes nothing.
 */
export async function handlePaymentWebhook(
  db: Db,
  context: PaymentContext,
  delivery: { rawBody: Buffer; signature: string | undefined },
): Promise<{ handled: 'fulfilled' | 'duplicate' | 'ignored' }> {
  const { clock, provider } = context;
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
      await fulfilPayment(tx, context, event.intent);
      return { handled: 'fulfilled' as const };
    } catch (error) {
      if (error instanceof AppError && error.code === 'PAYMENT_NOT_VERIFIED') return { handled: 'ignored' as const };
      throw error;
    }
  });
}

/**
 * Spec 4: a super_admin marks an unpaid student as paid (money received another way). The
 * payment is recorded with who and when; marking a paid student again changes nothing. The
 * enrolment's open PaymentIntents are canceled first (decision 042).
 */
export async function markStudentPaidManually(
  db: Db,
  context: PaymentContext,
  input: { studentId: number; staffId: number; payment: ManualPayment; defaultPriceCents: number },
): Promise<{ studentId: number; paymentAt: Date }> {
  const { clock } = context;
  // Decision 042: the pay tab still open must not charge again. Canceled first, so that a card
  // payment that just succeeded is fulfilled (and no manual one written) rather than paid twice.
  await cancelOpenPaymentIntents(db, context, input.studentId);
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
