import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { paymentEvents, paymentIntents, payments, students } from '../../db/schema.ts';
import { schoolEvents } from '../../platform/metrics.ts';
import type { ProviderIntent } from '../../platform/payments/provider.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import type { PaymentContext } from './payment-context.ts';
import { queuePaymentReceipt } from './payment-receipts.ts';
import { recordProviderRefunds } from './refunds.service.ts';

/**
 * Fulfilment: the one place a card payment makes a student paid (fulfilPayment), whichever way
 * the provider's word comes: its webhook, the browser's return, the test provider's confirmation.
 */

export type { PaymentContext, PaymentLog } from './payment-context.ts';

const notVerified = (message: string) => new AppError('PAYMENT_NOT_VERIFIED', message);

/** Decision 042: money that came for an enrolment already paid or archived is kept, not celebrated. */
const paidBeforeThisPayment = () =>
  new AppError(
    'ALREADY_PAID',
    'This course was already paid for, or replaced, when this payment arrived. The payment is recorded for a refund.',
  );

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
  context: PaymentContext,
  intent: ProviderIntent,
): Promise<{ studentId: number; surplus: boolean }> {
  // One transaction: the payment and its receipt are recorded together or not at all (decision 058).
  const { recorded, ...fulfilled } = await db.transaction((tx) => recordCardPayment(tx, context, intent));
  // Its transaction has committed (decision 060): a payment counts once, however often confirmed.
  if (recorded) schoolEvents.paymentsSucceeded.inc();
  return fulfilled;
}

/** fulfilPayment's statement and receipt, in the caller's transaction; `recorded`: this call wrote the payment. */
async function recordCardPayment(
  db: Db,
  { clock, provider, log, receipts }: PaymentContext,
  intent: ProviderIntent,
): Promise<{ studentId: number; surplus: boolean; recorded: boolean }> {
  if (intent.status !== 'succeeded') throw notVerified('This payment has not succeeded.');
  // The intent this school recorded, and the payment with the enrolment's "paid" written only if
  // the provider's intent matches it: one statement (decision 032: every payment is confirmed
  // twice, by the provider and by the browser's return), so both or neither are written.
  const values = {
    intentId: intent.id,
    provider: provider.name,
    metadataStudentId: intent.metadata.studentId ?? null,
    amount: intent.amount,
    currency: intent.currency,
    cardLast4: intent.cardLast4,
    now: clock.now().toISOString(),
  };
  const [expected] = await selectRawRows<{
    student_id: number;
    amount_cents: number;
    currency: string;
    matched: boolean;
    surplus: boolean;
    payment_id: number | null;
  }>(
    db,
    sql`with expected as (
        select student_id, amount_cents, currency from ${paymentIntents}
        where id = ${values.intentId}::text and provider = ${values.provider}::text
      ), matching as (
        select student_id from expected
        where student_id::text = ${values.metadataStudentId}::text
          and amount_cents = ${values.amount}::int and currency = ${values.currency}::text
      ), prior as (
        select id from ${payments} where provider_payment_id = ${values.intentId}::text
      ), surplus as (
        -- Another payment came first, or the enrolment was archived before this one arrived (a
        -- payment recorded before the archiving set payment_at).
        select exists (
          select 1 from ${payments} p where p.student_id = (select student_id from matching)
            and p.provider_payment_id is distinct from ${values.intentId}::text
            and p.id < coalesce((select id from prior), 2147483647)
        ) or exists (
          select 1 from ${students} s where s.id = (select student_id from matching) and s.archived_at is not null
            and (s.payment_at is null or not exists (select 1 from prior))
        ) as surplus
      ), recorded as (
        insert into ${payments} (student_id, method, provider, provider_payment_id, amount_cents, currency, card_last4, created_at)
        select student_id, 'card', ${values.provider}::text, ${values.intentId}::text,
          ${values.amount}::int, ${values.currency}::text, ${values.cardLast4}::text, ${values.now}::timestamptz
        from matching
        on conflict (provider_payment_id) do nothing
        returning id
      ), paid as (
        update ${students} set payment_at = ${values.now}::timestamptz
        where id = (select student_id from matching) and payment_at is null and archived_at is null
          and not (select surplus from surplus)
      )
      select student_id, amount_cents, currency, exists (select 1 from matching) as matched,
        coalesce((select surplus from surplus), false) as surplus, (select id from recorded) as payment_id
      from expected`,
  );
  // The statement decides (`matched`); these only say why it wrote nothing.
  if (expected?.matched) {
    // Decision 058: the student's receipt for money taken, once per payment, in this transaction.
    if (expected.payment_id !== null) await queuePaymentReceipt(db, receipts, expected.payment_id);
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
    return { studentId: expected.student_id, surplus: expected.surplus, recorded: expected.payment_id !== null };
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
 * A webhook delivery: the signature is checked on the raw body, each event is handled once, and
 * payment_intent.succeeded fulfils. An event about a payment that is not ours, or not right, is
 * recorded and acknowledged (the provider would otherwise retry it for days) but changes nothing.
 */
export async function handlePaymentWebhook(
  db: Db,
  context: PaymentContext,
  delivery: { rawBody: Buffer; signature: string | undefined },
): Promise<{ handled: 'fulfilled' | 'refunds_recorded' | 'duplicate' | 'ignored' }> {
  const { clock, provider } = context;
  const event = provider.parseWebhook(delivery.rawBody, delivery.signature);
  // A webhook's copy of the intent names its charge by id: the card's last four digits for the
  // receipt come from the intent retrieved (decision 058), before the transaction opens.
  const intent =
    event.type === 'payment_intent.succeeded' && event.intent && event.intent.cardLast4 === null
      ? ((await provider.retrieveIntent(event.intent.id).catch(() => null)) ?? event.intent)
      : event.intent;
  const { handled, recorded } = await db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type, receivedAt: clock.now() })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!fresh) return { handled: 'duplicate' as const, recorded: false };
    // Decision 058: a refund made in the provider's dashboard is recorded once (by its refund id).
    if (event.type === 'charge.refunded' && event.refundedIntentId) {
      const { recorded: refunds } = await recordProviderRefunds(tx, context, event.refundedIntentId);
      return { handled: refunds > 0 ? ('refunds_recorded' as const) : ('ignored' as const), recorded: false };
    }
    if (event.type !== 'payment_intent.succeeded' || !intent) {
      return { handled: 'ignored' as const, recorded: false };
    }
    try {
      return { handled: 'fulfilled' as const, recorded: (await recordCardPayment(tx, context, intent)).recorded };
    } catch (error) {
      if (error instanceof AppError && error.code === 'PAYMENT_NOT_VERIFIED') {
        return { handled: 'ignored' as const, recorded: false };
      }
      throw error;
    }
  });
  // Counted once the event's transaction has committed (decision 060).
  if (recorded) schoolEvents.paymentsSucceeded.inc();
  return { handled };
}
