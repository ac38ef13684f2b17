import { FINAL_EXAM_CHAPTER, type SessionUser } from '@ts/contract';

/**
 * Spec 2: the course is complete once the final exam is, which the server says in two ways: the
 * final's chapter among the completed chapters, or the stored user's completion moment (kept
 * from the sign-in, so a page knows before the chapters load). The sidebar's Certificates item and
 * the Retake Course button both ask this.
 */
export function isFinalComplete(
  completedChapters: readonly number[] | undefined,
  user: Pick<SessionUser, 'completed_at'> | null,
): boolean {
  return Boolean(user?.completed_at) || (completedChapters?.includes(FINAL_EXAM_CHAPTER) ?? false);
}
