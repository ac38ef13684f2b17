import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { seatTimeLedger } from '../../db/schema.ts';

/** What other features read of the seat-time ledger (decision 017: the seat-time feature owns it). */

/** The seconds the ledger credits the student with, over the whole course. */
export async function sumCreditedSeconds(db: Db, studentId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${seatTimeLedger.creditedSeconds}), 0)`.mapWith(Number) })
    .from(seatTimeLedger)
    .where(eq(seatTimeLedger.studentId, studentId));
  return row?.total ?? 0;
}
