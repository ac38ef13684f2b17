import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { courts, students } from '../../db/schema.ts';
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
