import type { ManualPayment } from '@ts/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { courts, payments, students } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { PaymentContext } from './fulfil-payment.service.ts';
import { cancelOpenPaymentIntents } from './payment-intents.service.ts';

/** Money received another way (spec 4, spec 7's enrolment by hand): a manual payment, recorded with who and when. */

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
 * What a payment taken by hand brought (decision 026): nothing when the course is waived, the amount
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
