import type { RefundStatus } from '@ts/contract';
import { and, desc, eq, gte, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments, refunds, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { type ProviderRefund, RefundRefusedError } from '../../platform/payments/provider.ts';
import { AppError } from '../../plugins/errors.ts';
import { assertMaySeeStudent } from '../../plugins/policies.ts';
import { repeatWindowStart } from '../../plugins/repeats.ts';
import { endStudentSessions, type Auth } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { PaymentContext } from './payment-context.ts';
import { queueRefundReceipt } from './payment-receipts.ts';
import { REFUNDED_ARCHIVE_REASON } from './payments.queries.ts';

/**
 * Refunds (decision 058): staff return part or all of a student's card payment through the
 * provider, and a refund made in the provider's dashboard arrives by its charge.refunded webhook.
 * Each is recorded once (the provider's refund id is unique), the payment's row locked while it
 * is decided, so two refunds at once never return more than was paid.
 */

/** Statuses whose money did not go back: they leave the amount refundable. */
const NOT_RETURNED: RefundStatus[] = ['failed', 'canceled'];

const exceedsPayment = (message: string) => new AppError('REFUND_EXCEEDS_PAYMENT', message);

type CardPayment = { id: number; providerPaymentId: string; amountCents: number; currency: string };

/** The student's card payments, newest first, their rows locked until the transaction ends. */
async function lockCardPayments(tx: Db, studentId: number): Promise<CardPayment[]> {
  // A statement of its own, before the reads it guards (as db/student-lock.ts explains).
  const rows = await tx
    .select({
      id: payments.id,
      providerPaymentId: payments.providerPaymentId,
      amountCents: payments.amountCents,
      currency: payments.currency,
    })
    .from(payments)
    .where(and(eq(payments.studentId, studentId), eq(payments.method, 'card')))
    .orderBy(desc(payments.id))
    .for('update');
  return rows.flatMap((row) =>
    row.providerPaymentId === null
      ? []
      : [
          {
            id: row.id,
            providerPaymentId: row.providerPaymentId,
            amountCents: row.amountCents ?? 0,
            currency: row.currency ?? 'usd',
          },
        ],
  );
}

/** Cents refunded so far per payment (failed and canceled refunds returned nothing). */
async function refundedSoFar(tx: Db, paymentIds: number[]): Promise<Map<number, number>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await tx
    .select({
      paymentId: refunds.paymentId,
      cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number),
    })
    .from(refunds)
    .where(and(inArray(refunds.paymentId, paymentIds), notInArray(refunds.status, NOT_RETURNED)))
    .groupBy(refunds.paymentId);
  return new Map(rows.map((row) => [row.paymentId, row.cents]));
}

/**
 * Records a refund the provider made, once: its refund id is unique, so the API's answer and the
 * webhook's copy of the same refund make one row. Answers the row, new or already there.
 */
async function recordProviderRefund(
  tx: Db,
  clock: Clock,
  input: { paymentId: number; refund: ProviderRefund; reason: string | null; staffId: number | null },
): Promise<{ id: number; amountCents: number; status: RefundStatus; fresh: boolean }> {
  const [inserted] = await tx
    .insert(refunds)
    .values({
      paymentId: input.paymentId,
      providerRefundId: input.refund.id,
      amountCents: input.refund.amount,
      currency: input.refund.currency,
      reason: input.reason,
      status: input.refund.status,
      staffId: input.staffId,
      createdAt: clock.now(),
    })
    .onConflictDoNothing({ target: refunds.providerRefundId })
    .returning({ id: refunds.id, amountCents: refunds.amountCents, status: refunds.status });
  if (inserted) return { ...inserted, fresh: true };
  // Known already: the provider's word on its status is the newer one.
  const [known] = await tx
    .update(refunds)
    .set({ status: input.refund.status })
    .where(eq(refunds.providerRefundId, input.refund.id))
    .returning({ id: refunds.id, amountCents: refunds.amountCents, status: refunds.status });
  if (!known) throw new Error('a refund was neither recorded nor found');
  return { ...known, fresh: false };
}

/**
 * Decision 058: a full refund of a course not finished closes the enrolment as a retake or a
 * replacement does (archived, its sessions ended), with the reason the sign-in tells the student.
 * Full: no payment of the enrolment keeps any money (no card payment with something left, no manual
 * payment of more than nothing). A finished course stays as it is, its certificate valid.
 */
async function closeFullyRefundedEnrolment(tx: Db, clock: Clock, studentId: number): Promise<boolean> {
  const paid = await tx
    .select({ id: payments.id, amountCents: payments.amountCents, method: payments.method })
    .from(payments)
    .where(eq(payments.studentId, studentId));
  const refunded = await refundedSoFar(
    tx,
    paid.map((payment) => payment.id),
  );
  const moneyKept = paid.some(
    (payment) => (payment.amountCents ?? 0) - (payment.method === 'card' ? (refunded.get(payment.id) ?? 0) : 0) > 0,
  );
  if (moneyKept) return false;
  const [closed] = await tx
    .update(students)
    .set({ archivedAt: clock.now(), archiveReason: REFUNDED_ARCHIVE_REASON })
    .where(and(eq(students.id, studentId), isNull(students.archivedAt), isNull(students.completedAt)))
    .returning({ id: students.id });
  if (!closed) return false;
  await endStudentSessions(tx, clock, studentId);
  return true;
}

/** The refund this staff member made for this student with these words moments ago (decision 040). */
async function findRepeatedRefund(
  tx: Db,
  clock: Clock,
  input: { paymentIds: number[]; staffId: number; reason: string; amountCents: number | undefined },
) {
  if (input.paymentIds.length === 0) return undefined;
  const [repeated] = await tx
    .select({ id: refunds.id, amountCents: refunds.amountCents, status: refunds.status })
    .from(refunds)
    .where(
      and(
        inArray(refunds.paymentId, input.paymentIds),
        eq(refunds.staffId, input.staffId),
        eq(refunds.reason, input.reason),
        input.amountCents === undefined ? undefined : eq(refunds.amountCents, input.amountCents),
        gte(refunds.createdAt, repeatWindowStart(clock.now())),
      ),
    )
    .orderBy(desc(refunds.id))
    .limit(1);
  return repeated;
}

/**
 * Decision 058: staff refund a student's card payment (the newest with money left), the whole of
 * what is left unless an amount is given. More than is left is refused (409) and nothing changes.
 * The payment rows stay locked while the provider is asked, so a second refund waits and then
 * sees this one; the same request again within the repeat window (a double click, decision 040)
 * is answered with the first refund, and the provider's idempotency key makes a retried call one
 * refund too. Audited with who, how much and why; the student is sent a refund receipt.
 */
export async function refundStudentPayment(
  db: Db,
  context: PaymentContext,
  input: { auth: Auth; staffId: number; studentId: number; amountCents: number | undefined; reason: string },
): Promise<{ id: number; amountCents: number; status: RefundStatus }> {
  const { clock, provider } = context;
  await assertMaySeeStudent(db, input.auth, input.studentId);
  return db.transaction(async (tx) => {
    const cardPayments = await lockCardPayments(tx, input.studentId);
    const paymentIds = cardPayments.map((payment) => payment.id);
    const repeated = await findRepeatedRefund(tx, clock, { ...input, paymentIds });
    if (repeated) return repeated;
    const refunded = await refundedSoFar(tx, paymentIds);
    const leftOf = (payment: CardPayment) => payment.amountCents - (refunded.get(payment.id) ?? 0);
    const payment = cardPayments.find((candidate) => leftOf(candidate) > 0);
    if (!payment) throw exceedsPayment('No card payment of this student has anything left to refund.');
    const left = leftOf(payment);
    const amountCents = input.amountCents ?? left;
    if (amountCents > left) {
      throw exceedsPayment(`At most ${String(left)} cents of this card payment are left to refund.`);
    }
    const earlier = (await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.paymentId, payment.id))).length;
    let providerRefund: ProviderRefund;
    try {
      providerRefund = await provider.createRefund({
        paymentIntentId: payment.providerPaymentId,
        amount: amountCents,
        metadata: { studentId: String(input.studentId), paymentId: String(payment.id) },
        // The same refund asked again (a retry after a lost answer) is the provider's same refund.
        idempotencyKey: `refund:${String(payment.id)}:${String(earlier)}:${String(amountCents)}`,
      });
    } catch (error) {
      if (error instanceof RefundRefusedError) throw exceedsPayment(error.message);
      throw error;
    }
    const refund = await recordProviderRefund(tx, clock, {
      paymentId: payment.id,
      refund: providerRefund,
      reason: input.reason,
      staffId: input.staffId,
    });
    const closed = await closeFullyRefundedEnrolment(tx, clock, input.studentId);
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: 'refund_payment',
      entityType: 'student',
      entityId: input.studentId,
      before: { payment_id: payment.id, refunded_cents: refunded.get(payment.id) ?? 0 },
      after: {
        refund_id: refund.id,
        payment_id: payment.id,
        amount_cents: refund.amountCents,
        reason: input.reason,
        provider_refund_id: providerRefund.id,
        status: refund.status,
        enrolment_closed: closed,
      },
    });
    await queueRefundReceipt(tx, context.receipts, { refundId: refund.id, courseClosed: closed });
    return { id: refund.id, amountCents: refund.amountCents, status: refund.status };
  });
}

/**
 * The provider's charge.refunded webhook: every refund of that PaymentIntent the school has not
 * recorded (one made in the provider's dashboard) is recorded, its reason the provider's, no staff
 * member named; one the school made through the API is already there (its refund id) and is not
 * recorded again. A PaymentIntent that is not a payment of ours changes nothing.
 */
export async function recordProviderRefunds(
  tx: Db,
  context: PaymentContext,
  paymentIntentId: string,
): Promise<{ recorded: number }> {
  const { clock, provider } = context;
  const [payment] = await tx
    .select({ id: payments.id, studentId: payments.studentId })
    .from(payments)
    .where(and(eq(payments.providerPaymentId, paymentIntentId), eq(payments.method, 'card')))
    .for('update');
  if (!payment) return { recorded: 0 };
  const providerRefunds = await provider.listRefunds(paymentIntentId);
  const fresh: number[] = [];
  for (const providerRefund of providerRefunds) {
    const refund = await recordProviderRefund(tx, clock, {
      paymentId: payment.id,
      refund: providerRefund,
      reason: providerRefund.reason,
      staffId: null,
    });
    if (refund.fresh) fresh.push(refund.id);
  }
  const closed = fresh.length > 0 && (await closeFullyRefundedEnrolment(tx, clock, payment.studentId));
  for (const refundId of fresh) await queueRefundReceipt(tx, context.receipts, { refundId, courseClosed: closed });
  return { recorded: fresh.length };
}
