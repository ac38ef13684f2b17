import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contentApi, progressApi } from '@ts/contract';
import { callApi, shouldSignOutAfter } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';

/** The signed-in student's id (the guard guarantees one on every course page). */
export function useStudentId(): number {
  return useStoredUser()?.id ?? 0;
}

export function useChapters() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: ['chapters', i18n.language], queryFn: () => callApi(contentApi.chapters) });
}

/**
 * Spec 8: if the completed-chapters call fails, the stored user is removed (no redirect at once),
 * but only when the server answered so; a call aborted by a reload keeps the student signed in.
 */
export function useCompletedChapters() {
  const studentId = useStudentId();
  return useQuery({
    queryKey: ['completed-chapters', studentId],
    queryFn: async () => {
      try {
        return await callApi(progressApi.completedChapters, { params: { id: studentId } });
      } catch (error) {
        if (shouldSignOutAfter(error)) clearStoredUser();
        throw error;
      }
    },
    enabled: studentId > 0,
  });
}

export function useModules(chapterId: number) {
  const studentId = useStudentId();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['modules', chapterId, i18n.language],
    queryFn: () => callApi(contentApi.modules, { params: { chapterId }, query: { userId: studentId } }),
    enabled: chapterId > 0,
  });
}

export function useModule(moduleId: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['module', moduleId, i18n.language],
    queryFn: () => callApi(contentApi.module, { params: { moduleId } }),
  });
}

export function useTopics(moduleId: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['topics', moduleId, i18n.language],
    queryFn: () => callApi(contentApi.topics, { params: { moduleId } }),
  });
}

export function useVideo(moduleId: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['video', moduleId, i18n.language],
    queryFn: () => callApi(contentApi.video, { params: { moduleId } }),
  });
}

export function useQuizStatus(chapterId: number) {
  const studentId = useStudentId();
  return useQuery({
    queryKey: ['quiz-status', chapterId],
    queryFn: () => callApi(progressApi.quizStatus, { params: { id: studentId, chapterId } }),
  });
}

/** After progress changes, everything that shows progress is asked again. */
export function useRefreshProgress(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      ['completed-chapters', 'modules', 'module', 'quiz-status', 'me'].map((key) =>
        queryClient.invalidateQueries({ queryKey: [key] }),
      ),
    );
  };
}
