import { queryOptions, useQuery } from '@tanstack/react-query';
import { progressApi } from '@ts/contract';
import { callApi, shouldSignOutAfter } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';

/** The student's progress as the server keeps it: the chapters complete and each quiz's state. */
export const progressQueries = {
  /** Every progress answer: what a change of progress makes stale. */
  all: () => ['progress'] as const,
  /**
   * Spec 8: if the completed-chapters call fails, the stored user is removed (no redirect at once),
   * but only when the server answered so; a call aborted by a reload keeps the student signed in.
   */
  completedChapters: (studentId: number) =>
    queryOptions({
      queryKey: [...progressQueries.all(), 'completed-chapters', studentId],
      queryFn: async () => {
        try {
          return await callApi(progressApi.completedChapters, { params: { id: studentId } });
        } catch (error) {
          if (shouldSignOutAfter(error)) clearStoredUser();
          throw error;
        }
      },
      enabled: studentId > 0,
    }),
  quizStatus: (chapterId: number, studentId: number) =>
    queryOptions({
      queryKey: [...progressQueries.all(), 'quiz-status', chapterId],
      queryFn: () => callApi(progressApi.quizStatus, { params: { id: studentId, chapterId } }),
    }),
};

/** The signed-in student's completed chapters (idle without a signed-in user). */
export function useCompletedChapters() {
  return useQuery(progressQueries.completedChapters(useStoredUser()?.id ?? 0));
}
