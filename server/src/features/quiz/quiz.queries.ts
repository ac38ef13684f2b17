import { and, asc, count, desc, eq, gte, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { quizAttempts } from '../../db/schema.ts';

/**
 * The reads of quiz attempts that the quiz's rules and other features share (decision 017: the
 * quiz feature owns the table; the others read it only through these).
 */

/** The student's submitted attempts at a chapter's quiz, newest first. */
export async function listSubmittedAttemptsAt(
  db: Db,
  input: { studentId: number; chapterId: number },
): Promise<{ submittedAt: Date | null; passed: boolean | null }[]> {
  return db
    .select({ submittedAt: quizAttempts.submittedAt, passed: quizAttempts.passed })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.studentId, input.studentId),
        eq(quizAttempts.chapterId, input.chapterId),
        isNotNull(quizAttempts.submittedAt),
      ),
    )
    .orderBy(desc(quizAttempts.submittedAt), desc(quizAttempts.id));
}

/** The student's latest submitted attempt at a chapter's quiz, or undefined. */
export async function findLatestSubmittedAttempt(
  db: Db,
  input: { studentId: number; chapterId: number },
): Promise<{ passed: boolean | null } | undefined> {
  const [latest] = await listSubmittedAttemptsAt(db, input);
  return latest;
}

/** The student's first passing attempt at a chapter's quiz, or undefined. */
export async function findFirstPassingAttempt(
  db: Db,
  input: { studentId: number; chapterId: number },
): Promise<{ id: number } | undefined> {
  const [passing] = await db
    .select({ id: quizAttempts.id })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.studentId, input.studentId),
        eq(quizAttempts.chapterId, input.chapterId),
        eq(quizAttempts.passed, true),
      ),
    )
    .orderBy(asc(quizAttempts.id))
    .limit(1);
  return passing;
}

/** Every submitted attempt of a student, oldest first, with its score out of its questions. */
export async function listSubmittedAttemptsOf(db: Db, studentId: number) {
  return db
    .select({
      chapterId: quizAttempts.chapterId,
      submittedAt: quizAttempts.submittedAt,
      score: quizAttempts.score,
      passed: quizAttempts.passed,
      total: sql<number>`jsonb_array_length(${quizAttempts.questionIds})`.mapWith(Number),
    })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.studentId, studentId), isNotNull(quizAttempts.submittedAt)))
    .orderBy(asc(quizAttempts.submittedAt), asc(quizAttempts.id));
}

/** Attempts at one chapter's quiz submitted in [since, until] (both ends included), and how many passed. */
export async function countSubmittedAttemptsBetween(
  db: Db,
  input: { chapterId: number; since: Date; until: Date },
): Promise<{ submitted: number; passed: number }> {
  const [row] = await db
    .select({
      submitted: count(),
      passed: sql<number>`count(*) filter (where ${quizAttempts.passed} = true)`.mapWith(Number),
    })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.chapterId, input.chapterId),
        isNotNull(quizAttempts.submittedAt),
        gte(quizAttempts.submittedAt, input.since),
        lte(quizAttempts.submittedAt, input.until),
      ),
    );
  return { submitted: row?.submitted ?? 0, passed: row?.passed ?? 0 };
}
