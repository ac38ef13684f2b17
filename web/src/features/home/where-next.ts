import type { Module } from '@ts/contract';

const COURSE_CHAPTERS = [1, 2, 3, 4] as const;
const FINAL_EXAM = 6;

/** Where a student stands, for home's Continue card (spec 4's order: chapters 1-4, then the final). */
export type WhereNext =
  | { kind: 'not_started' }
  | { kind: 'chapter'; chapter: number; next: { module: Module } | { quiz: number } }
  | { kind: 'final' }
  | { kind: 'complete' };

/** The chapter to study now: the first of 1-4 not passed, then the final (6), or null once done. */
export function currentChapter(completedChapters: readonly number[]): number | null {
  const done = new Set(completedChapters);
  if (done.has(FINAL_EXAM)) return null;
  return COURSE_CHAPTERS.find((chapter) => !done.has(chapter)) ?? FINAL_EXAM;
}

/**
 * Where home sends the student: nothing new for one who has not started (the spec's Begin Course
 * does that), the next module or quiz of the current chapter, the final, or the certificate.
 * `modules` are the current chapter's, each saying whether it is complete.
 */
export function whereNext(completedChapters: readonly number[], modules: readonly Module[] | undefined): WhereNext {
  const chapter = currentChapter(completedChapters);
  if (chapter === null) return { kind: 'complete' };
  if (chapter === FINAL_EXAM) return { kind: 'final' };
  const started = completedChapters.length > 0 || (modules ?? []).some((module) => module.complete);
  if (!started || modules === undefined) return { kind: 'not_started' };
  const module = modules.find((candidate) => !candidate.complete);
  return { kind: 'chapter', chapter, next: module ? { module } : { quiz: chapter } };
}
