import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rulesExceptions } from '../../db/schema.ts';

/** Attempts staff added to a student's quiz (or final) beyond the profile's (issue 17). */
export async function countExtraAttempts(db: Db, input: { studentId: number; chapterId: number }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rulesExceptions)
    .where(
      and(
        eq(rulesExceptions.studentId, input.studentId),
        eq(rulesExceptions.kind, 'extra_attempt'),
        eq(rulesExceptions.chapterId, input.chapterId),
      ),
    );
  return row?.n ?? 0;
}

/** Days staff added to a student's completion window (issue 17). */
export async function sumWindowExtensionDays(db: Db, studentId: number): Promise<number> {
  const [row] = await db
    .select({ days: sql<number>`coalesce(sum(${rulesExceptions.days}), 0)::int` })
    .from(rulesExceptions)
    .where(and(eq(rulesExceptions.studentId, studentId), eq(rulesExceptions.kind, 'extend_window')));
  return Number(row?.days ?? 0);
}
