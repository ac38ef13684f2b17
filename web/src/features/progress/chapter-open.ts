/**
 * The quiz that still keeps a chapter closed, or null when it is open (spec 4: chapters 1 to 4 in
 * order, each opened by passing the one before). The server decides (CHAPTER_LOCKED); the pages
 * say it before the student tries.
 */
export function chapterLockedBy(completedChapters: readonly number[] | undefined, chapterId: number): number | null {
  if (completedChapters === undefined) return null;
  const done = new Set(completedChapters);
  for (let chapter = 1; chapter < chapterId; chapter += 1) if (!done.has(chapter)) return chapter;
  return null;
}
