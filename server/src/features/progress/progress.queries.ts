import { eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { createVersionedCopies } from '../../db/versioned-copies.ts';
import { moduleCompletions, students } from '../../db/schema.ts';
import { jsonIdsColumn, OUTER_STUDENT_ID } from '../../db/subquery-columns.ts';
import { completedChapterIdsColumn } from './chapter-order.ts';

/** What other features read of course progress (decision 017: the progress feature owns it). */

/** A student's completions as this instance last read them, and the progress version they stand for. */
export interface StudentProgress {
  version: number;
  moduleIds: ReadonlySet<number>;
  /** In order; 6 once the final is passed. */
  chapterIds: readonly number[];
}

/** Enough for every student studying at once on a busy day; the least recently used go first. */
const PROGRESS_COPIES = 20_000;
const progressCopies = createVersionedCopies<StudentProgress>(PROGRESS_COPIES);

/**
 * The student's completed modules and chapters, from this instance's copy when it is as new as
 * the progress version the session lookup read at the start of the request (issue 15, decision
 * 019): a trigger raises the version on every change to the completions, whoever writes, so a
 * copy that is not stale is right on every instance. Otherwise one query reads them again.
 * Takes the app's database, never a transaction (a copy must not hold uncommitted rows).
 */
export async function getStudentProgress(
  db: Db,
  student: { studentId: number; progressVersion: number },
): Promise<StudentProgress> {
  if (db instanceof PgTransaction) throw new Error('getStudentProgress takes the database, not a transaction');
  const held = progressCopies.fresh(db, student.studentId, student.progressVersion);
  if (held) return held;
  const [row] = await prepareOnce(db, 'read_student_progress', (database) =>
    database
      .select({
        version: students.progressVersion,
        moduleIds: sql<number[]>`(select json_agg(${moduleCompletions.moduleId}) from ${moduleCompletions}
          where ${moduleCompletions.studentId} = ${OUTER_STUDENT_ID})`.mapWith(jsonIdsColumn),
        chapterIds: completedChapterIdsColumn(OUTER_STUDENT_ID),
      })
      .from(students)
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare('read_student_progress'),
  ).execute({ studentId: student.studentId });
  const fresh: StudentProgress = {
    version: row?.version ?? student.progressVersion,
    moduleIds: new Set(row?.moduleIds ?? []),
    chapterIds: row?.chapterIds ?? [],
  };
  progressCopies.keep(db, student.studentId, fresh);
  return fresh;
}
