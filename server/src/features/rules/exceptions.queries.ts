import { and, count, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rulesExceptions } from '../../db/schema.ts';
import { OUTER_STUDENT_ID } from '../../db/subquery-columns.ts';

/** Attempts staff added to a student's quiz (or final) beyond the profile's. */
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

/** Every quiz staff added attempts to for the student, with how many (the student's rules say so). */
export async function listExtraAttempts(db: Db, studentId: number): Promise<{ chapter: number; attempts: number }[]> {
  const rows = await db
    .select({ chapter: rulesExceptions.chapterId, attempts: count() })
    .from(rulesExceptions)
    .where(and(eq(rulesExceptions.studentId, studentId), eq(rulesExceptions.kind, 'extra_attempt')))
    .groupBy(rulesExceptions.chapterId)
    .orderBy(rulesExceptions.chapterId);
  return rows.flatMap((row) => (row.chapter === null ? [] : [{ chapter: row.chapter, attempts: row.attempts }]));
}

/**
 * Days staff added to the completion window of the row's student, as a column of a
 * query on `students`, so the window is read with the student in one statement.
 */
export const windowExtensionDaysColumn = sql<number>`(select coalesce(sum(${rulesExceptions.days}), 0)::int from ${rulesExceptions} where ${rulesExceptions.studentId} = ${OUTER_STUDENT_ID} and ${rulesExceptions.kind} = 'extend_window')`;

/**
 * An exception of the same kind and parameters (quiz or days) that the same staff member granted
 * the student since `since`, if any: a repeat of it is answered, not stored (decision 040).
 */
export async function findRecentIdenticalGrant(
  db: Db,
  input: {
    studentId: number;
    staffId: number;
    kind: 'extra_attempt' | 'extend_window';
    chapterId: number | null;
    days: number | null;
    since: Date;
  },
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: rulesExceptions.id })
    .from(rulesExceptions)
    .where(
      and(
        eq(rulesExceptions.studentId, input.studentId),
        eq(rulesExceptions.staffId, input.staffId),
        eq(rulesExceptions.kind, input.kind),
        input.chapterId === null ? isNull(rulesExceptions.chapterId) : eq(rulesExceptions.chapterId, input.chapterId),
        input.days === null ? isNull(rulesExceptions.days) : eq(rulesExceptions.days, input.days),
        gte(rulesExceptions.createdAt, input.since),
      ),
    )
    .limit(1);
  return row;
}
