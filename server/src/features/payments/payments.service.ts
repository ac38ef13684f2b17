import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { courts, payments, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { notFound } from '../../plugins/errors.ts';

/** Spec 9: amounts are cents. The student's court may override the school's price. */
export async function getPaymentAmount(db: Db, studentId: number, defaultPriceCents: number): Promise<number> {
  const [row] = await db
    .select({ courtPrice: courts.priceCents })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(and(eq(students.id, studentId), isNull(students.archivedAt)));
  if (!row) throw notFound('No enrolment was found for this payment.');
  return row.courtPrice ?? defaultPriceCents;
}

/**
 * Spec 4: a super_admin marks an unpaid student as paid (money received another way). The
 * payment is recorded with who and when; marking a paid student again changes nothing.
 */
export async function markStudentPaidManually(
  db: Db,
  clock: Clock,
  input: { studentId: number; staffId: number },
): Promise<{ studentId: number; paymentAt: Date }> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const [marked] = await tx
      .update(students)
      .set({ paymentAt: now })
      .where(and(eq(students.id, input.studentId), isNull(students.archivedAt), isNull(students.paymentAt)))
      .returning({ id: students.id, paymentAt: students.paymentAt });
    if (marked?.paymentAt) {
      await tx
        .insert(payments)
        .values({ studentId: marked.id, method: 'manual', recordedByStaffId: input.staffId, createdAt: now });
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
