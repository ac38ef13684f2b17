import { eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { createCache, createVersionedCache } from '../../platform/caches.ts';
import { quizAttempts, students } from '../../db/schema.ts';
import { jsonIdsColumn, OUTER_STUDENT_ID, parseJsonColumn } from '../../db/subquery-columns.ts';
import { keepStudentProgress, studentProgressColumns } from '../progress/progress.queries.ts';

/** What showing an unsubmitted attempt again, or grading it, needs of it. */
export type OpenAttempt = Pick<
  typeof quizAttempts.$inferSelect,
  'id' | 'studentId' | 'chapterId' | 'questionIds' | 'answerOrder' | 'rulesProfileId' | 'rulesProfileVersion'
>;

interface OpenAttemptsCopy {
  version: number;
  byChapter: ReadonlyMap<number, OpenAttempt>;
}

/** As many students as the progress copies hold (decision 019); the least recently used go first. */
const copies = createVersionedCache<OpenAttemptsCopy>(20_000);

/**
 * Attempts this instance showed (drawn, or shown again), by id. What grading needs of
 * an attempt (its questions, their order, its rules) never changes once it is drawn, and the
 * grading statement grades only an attempt not yet submitted, so a submission naming an attempt
 * held here needs no read of its own, whichever instance graded or drew since (platform/caches.ts):
 * 5,000 (about 2 kB each), a quiz open at once for five times the 1,000 students an instance is
 * measured with; an attempt not held is read again when submitted.
 */
const heldAttempts = createCache<number, OpenAttempt>(5_000);

/** Notes an attempt shown to its student, for its submission. */
export function holdOpenAttempt(db: Db, attempt: OpenAttempt): void {
  heldAttempts.set(db, attempt.id, attempt);
}

/**
 * The attempt a submission names, when this instance holds it and it is this student's attempt at
 * this chapter; whether it is still open is for the grading statement to say.
 */
export function findHeldAttempt(
  db: Db,
  input: { studentId: number; chapterId: number; attemptId: number },
): OpenAttempt | undefined {
  const attempt = heldAttempts.get(db, input.attemptId);
  return attempt?.studentId === input.studentId && attempt.chapterId === input.chapterId ? attempt : undefined;
}

/** Forgets an attempt once submitted: it is never graded again. */
export function releaseAttempt(db: Db, attemptId: number): void {
  heldAttempts.delete(db, attemptId);
}

/** The student's open attempts as a column of a query whose rows are students. */
function openAttemptsColumn() {
  return sql<OpenAttempt[] | null>`(select json_agg(json_build_object(
      'id', ${quizAttempts.id}, 'studentId', ${quizAttempts.studentId}, 'chapterId', ${quizAttempts.chapterId},
      'questionIds', ${quizAttempts.questionIds}, 'answerOrder', ${quizAttempts.answerOrder},
      'rulesProfileId', ${quizAttempts.rulesProfileId}, 'rulesProfileVersion', ${quizAttempts.rulesProfileVersion})
      order by ${quizAttempts.id})
    from ${quizAttempts}
    where ${quizAttempts.studentId} = ${OUTER_STUDENT_ID} and ${quizAttempts.submittedAt} is null)`.mapWith(
    (value) => parseJsonColumn(value) as OpenAttempt[] | null,
  );
}

/**
 * A student's unsubmitted attempt at a quiz, from this instance's copy when it is as new as the
 * progress version the session lookup read (decision 019): a trigger raises that version whenever an
 * attempt is drawn or graded (migration 0014), whoever writes, so a reload of an open quiz needs
 * no query of its own on any instance, nor does grading it. Otherwise one query reads the student's
 * open attempts. Takes the app's database, never a transaction (a copy must not hold uncommitted
 * rows).
 */
export async function findFreshOpenAttempt(
  db: Db,
  student: { studentId: number; progressVersion: number },
  chapterId: number,
): Promise<OpenAttempt | undefined> {
  return (await readOpenAttempts(db, student, chapterId, { forDraw: false })).open;
}

/** A draw's first read: the open attempt, and the latest attempt's questions (undefined: not read). */
interface DrawRead {
  open: OpenAttempt | undefined;
  previousQuestionIds: number[] | undefined;
}

/**
 * What a draw reads first: the open attempt as findFreshOpenAttempt finds it and, when it reads
 * (the copy was stale), in the same trip the student's completions, kept as the progress copy the
 * draw's checks read next (decision 029), and the questions of the chapter's latest attempt, the
 * ones a new draw leaves out (decision 019: they were a read of their own, one of a draw's four).
 * `previousQuestionIds` is undefined when nothing was read.
 */
export async function readForDraw(
  db: Db,
  student: { studentId: number; progressVersion: number },
  chapterId: number,
): Promise<DrawRead> {
  return readOpenAttempts(db, student, chapterId, { forDraw: true });
}

async function readOpenAttempts(
  db: Db,
  student: { studentId: number; progressVersion: number },
  chapterId: number,
  { forDraw }: { forDraw: boolean },
): Promise<DrawRead> {
  if (db instanceof PgTransaction) throw new Error('open attempts are read from the database, not a transaction');
  const held = copies.fresh(db, student.studentId, student.progressVersion);
  if (held) return { open: held.byChapter.get(chapterId), previousQuestionIds: undefined };
  // Two statements, each prepared once: a draw's read adds the completions and the latest
  // attempt's questions, a grade's does not.
  const name = forDraw ? 'read_open_attempts_for_draw' : 'read_open_attempts';
  const [read] = await prepareOnce(db, name, (database) =>
    database
      .select({
        version: students.progressVersion,
        open: openAttemptsColumn(),
        ...(forDraw
          ? {
              ...studentProgressColumns(),
              previousQuestionIds: sql<number[]>`coalesce((select ${quizAttempts.questionIds} from ${quizAttempts}
                where ${quizAttempts.studentId} = ${OUTER_STUDENT_ID} and ${quizAttempts.chapterId} = ${sql.placeholder('chapterId')}::int
                order by ${quizAttempts.id} desc limit 1), '[]'::jsonb)`.mapWith(jsonIdsColumn),
            }
          : {}),
      })
      .from(students)
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare(name),
  ).execute({ studentId: student.studentId, chapterId });
  if (read && forDraw) keepStudentProgress(db, student.studentId, read);
  // The open attempt of each chapter (one at most: the one-open-attempt index, decision 055).
  const byChapter = new Map((read?.open ?? []).map((attempt) => [attempt.chapterId, attempt]));
  const fresh: OpenAttemptsCopy = { version: read?.version ?? student.progressVersion, byChapter };
  copies.keep(db, student.studentId, fresh);
  return {
    open: byChapter.get(chapterId),
    previousQuestionIds: read && 'previousQuestionIds' in read ? read.previousQuestionIds : undefined,
  };
}
