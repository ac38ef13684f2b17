import { eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { createVersionedCache } from '../../platform/caches.ts';
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
const progressCopies = createVersionedCache<StudentProgress>(PROGRESS_COPIES);

/**
 * The columns a progress copy is read from, for a query whose rows are students: a caller that
 * reads the student's row for its own copy anyway (the quiz draw's open attempts) reads these in
 * the same trip and keeps them (keepStudentProgress), so the draw's progress check needs no query.
 */
export function studentProgressColumns() {
  return {
    moduleIds: sql<number[]>`(select json_agg(${moduleCompletions.moduleId}) from ${moduleCompletions}
      where ${moduleCompletions.studentId} = ${OUTER_STUDENT_ID})`.mapWith(jsonIdsColumn),
    chapterIds: completedChapterIdsColumn(OUTER_STUDENT_ID),
  };
}

/** Keeps a progress read at `version` as this instance's copy (studentProgressColumns). */
export function keepStudentProgress(
  db: Db,
  studentId: number,
  read: { version: number; moduleIds?: number[] | null | undefined; chapterIds?: number[] | null | undefined },
): StudentProgress {
  const fresh: StudentProgress = {
    version: read.version,
    moduleIds: new Set(read.moduleIds ?? []),
    chapterIds: read.chapterIds ?? [],
  };
  progressCopies.keep(db, studentId, fresh);
  return fresh;
}

/**
 * The student's completed modules and chapters, from this instance's copy when it is as new as
 * the progress version the session lookup read at the start of the request (decision
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
      .select({ version: students.progressVersion, ...studentProgressColumns() })
      .from(students)
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare('read_student_progress'),
  ).execute({ studentId: student.studentId });
  return keepStudentProgress(db, student.studentId, {
    version: row?.version ?? student.progressVersion,
    moduleIds: row?.moduleIds ?? null,
    chapterIds: row?.chapterIds ?? null,
  });
}
