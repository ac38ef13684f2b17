import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { OUTER_STUDENT_ID, parseJsonColumn } from '../../db/subquery-columns.ts';
import { courts, paymentIntents, payments, students } from '../../db/schema.ts';
import type { IntentStatus, ProviderIntent } from '../../platform/payments/provider.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { fulfilPayment, type PaymentContext } from './fulfil-payment.service.ts';

/**
 * The price and the PaymentIntents the card form pays: one open intent per enrolment at the
 * current price, the others cancelled (decision 042).
 */

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
// The queries of a card payment are prepared once (decision 030): every student pays once, and a
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
  const [student] = await prepareOnce(db, 'find_paying_student_intents', (database) =>
    selectPayingStudent(database, {
      attempts: sql<number>`(select count(*) from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID})`.mapWith(
        Number,
      ),
      intents: sql<RecordedIntent[]>`(select coalesce(json_agg(json_build_object('id', id, 'amountCents', amount_cents)
            order by created_at desc, id desc), '[]'::json)
          from ${paymentIntents} where student_id = ${OUTER_STUDENT_ID} and provider = ${sql.placeholder('provider')}::text)`.mapWith(
        (value: unknown) => parseJsonColumn(value) as RecordedIntent[],
      ),
    }).prepare('find_paying_student_intents'),
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
