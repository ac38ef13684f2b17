import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { COURSE_CHAPTERS, FINAL_EXAM_CHAPTER } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { jsonIdsColumn } from '../../db/subquery-columns.ts';
import { chapterCompletions } from '../../db/schema.ts';
import { AppError } from '../../plugins/errors.ts';

// Chapter order sits apart from progress.service.ts so that seat time, identity checks and
// quizzes can ask whether a chapter is open without importing completion (decision 017: no cycles).

/** Spec 3: the chapters a student has completed; 6 once the final exam is passed. */
export async function listCompletedChapterIds(db: Db, studentId: number): Promise<number[]> {
  const rows = await prepareOnce(db, 'list_chapter_completions', (database) =>
    database
      .select({ chapterId: chapterCompletions.chapterId })
      .from(chapterCompletions)
      .where(eq(chapterCompletions.studentId, sql.placeholder('studentId')))
      .orderBy(asc(chapterCompletions.chapterId))
      .prepare('list_chapter_completions'),
  ).execute({ studentId });
  return rows.map((row) => row.chapterId);
}

/** Spec 4: the chapters that must be complete before this one opens (1-4 in order; the final after 4). */
export function prerequisiteChapters(chapterId: number): number[] {
  if (chapterId === FINAL_EXAM_CHAPTER) return [...COURSE_CHAPTERS];
  return COURSE_CHAPTERS.filter((chapter) => chapter < chapterId);
}

/**
 * The same rule as a condition of a statement (decision 019: a module's completion is written in one
 * trip only while its chapter is open): true when the student (`studentId`, an SQL expression)
 * completed every chapter of `needed`, a JSON array parameter holding prerequisiteChapters.
 */
export function chapterOpenCondition(studentId: SQL, needed: SQL): SQL {
  return sql`not exists (
    select 1 from jsonb_array_elements_text(${needed}::jsonb) as needed(chapter_id)
    where not exists (
      select 1 from ${chapterCompletions}
      where ${chapterCompletions.studentId} = ${studentId} and ${chapterCompletions.chapterId} = needed.chapter_id::int))`;
}

/**
 * The student's completed chapter ids as a column of a query whose rows are students
 * (`studentId` is its student id column): the heartbeat reads them with its seat time in one trip.
 */
export function completedChapterIdsColumn(studentId: SQL) {
  return sql<number[]>`(
    select coalesce(json_agg(${chapterCompletions.chapterId} order by ${chapterCompletions.chapterId}), '[]')
    from ${chapterCompletions} where ${chapterCompletions.studentId} = ${studentId})`.mapWith(jsonIdsColumn);
}

/** Spec 4: chapters go in order, and the final opens only when chapters 1-4 are complete. */
export async function assertChapterOpen(db: Db, studentId: number, chapterId: number): Promise<void> {
  if (prerequisiteChapters(chapterId).length === 0) return;
  assertChapterOpenGiven(await listCompletedChapterIds(db, studentId), chapterId);
}

/** The same rule, given the chapters the student completed. */
export function assertChapterOpenGiven(completedChapterIds: readonly number[], chapterId: number): void {
  const needed = prerequisiteChapters(chapterId);
  if (needed.length === 0) return;
  const done = new Set(completedChapterIds);
  const missing = needed.filter((chapter) => !done.has(chapter));
  if (missing.length > 0) {
    throw new AppError(
      chapterId === FINAL_EXAM_CHAPTER ? 'CHAPTERS_INCOMPLETE' : 'CHAPTER_LOCKED',
      chapterId === FINAL_EXAM_CHAPTER
        ? 'You must complete all the chapters before taking the final exam!'
        : `Please complete chapter ${String(missing[0])} first.`,
      { missingChapters: missing },
    );
  }
}
