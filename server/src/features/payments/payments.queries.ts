import { and, asc, count, desc, eq, gte, lte, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { lastNameMatches } from '../../db/last-names.ts';
import { payments, refunds, staff, students } from '../../db/schema.ts';

/**
 * What other features read of payments (decision 017: the payments feature owns the table; the
 * others read it only through these, and record a payment only through its services: fulfilPayment
 * for a card, manual-payments.service.ts by hand).
 */

/** A student's payments, oldest first, with the name of the staff member who recorded a manual one. */
export async function listPaymentsOf(db: Db, studentId: number) {
  return db
    .select({ payment: payments, recordedBy: staff.name })
    .from(payments)
    .leftJoin(staff, eq(staff.id, payments.recordedByStaffId))
    .where(eq(payments.studentId, studentId))
    .orderBy(asc(payments.createdAt));
}

/** What the archive says of an enrolment a full refund closed (decision 058). */
export const REFUNDED_ARCHIVE_REASON = 'refunded';

/**
 * Decision 058: whether the latest enrolment with this licence number and last name was closed by
 * a full refund, for the sign-in that found no active enrolment to tell the student why.
 */
export async function wasClosedByRefund(db: Db, typed: { dlNumber: string; lastName: string }): Promise<boolean> {
  const [latest] = await db
    .select({ archivedAt: students.archivedAt, archiveReason: students.archiveReason })
    .from(students)
    .where(and(eq(students.dlNumber, typed.dlNumber), lastNameMatches(sql`${students.lastName}`, typed.lastName)))
    .orderBy(desc(students.id))
    .limit(1);
  return latest?.archivedAt != null && latest.archiveReason === REFUNDED_ARCHIVE_REASON;
}

/** A student's refunds (decision 058), oldest first, with the name of the staff member who made one here. */
export async function listRefundsOf(db: Db, studentId: number) {
  return db
    .select({ refund: refunds, refundedBy: staff.name })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .leftJoin(staff, eq(staff.id, refunds.staffId))
    .where(eq(payments.studentId, studentId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/**
 * Payments made in [since, until] (both ends included), and the revenue they brought net of the
 * refunds made in the same window (decision 058: money returned is counted on the day it went back;
 * a failed or canceled refund returned nothing).
 */
export async function sumPaymentsBetween(
  db: Db,
  input: { since: Date; until: Date },
): Promise<{ payments: number; revenueCents: number }> {
  const [row] = await db
    .select({
      payments: count(),
      revenueCents: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number),
    })
    .from(payments)
    .where(and(gte(payments.createdAt, input.since), lte(payments.createdAt, input.until)));
  const [refunded] = await db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(
      and(
        gte(refunds.createdAt, input.since),
        lte(refunds.createdAt, input.until),
        notInArray(refunds.status, ['failed', 'canceled']),
      ),
    );
  return { payments: row?.payments ?? 0, revenueCents: (row?.revenueCents ?? 0) - (refunded?.cents ?? 0) };
}
