import { and, asc, count, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments, staff } from '../../db/schema.ts';

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

/** Payments made in [since, until] (both ends included), and the card revenue they brought. */
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
  return { payments: row?.payments ?? 0, revenueCents: row?.revenueCents ?? 0 };
}
