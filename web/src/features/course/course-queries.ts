import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { type Quiz, FINAL_EXAM_CHAPTER, contentApi, progressApi, quizApi } from '@ts/contract';
import { callApi, shouldSignOutAfter } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';

/** The signed-in student's id (the guard guarantees one on every course page). */
export function useStudentId(): number {
  return useStoredUser()?.id ?? 0;
}

/** The language the course's texts are asked for (api.ts sends it as Accept-Language). */
function useLanguage(): string {
  return useTranslation().i18n.language;
}

/**
 * Every course query in one place (issue 16): a key is written once, and every query whose
 * answer holds course text is keyed by the language, so switching to Español mid-page asks for
 * the Spanish text instead of keeping the English one.
 */
export const courseQueries = {
  chapters: (language: string) =>
    queryOptions({ queryKey: ['chapters', language], queryFn: () => callApi(contentApi.chapters) }),
  modules: (chapterId: number, studentId: number, language: string) =>
    queryOptions({
      queryKey: ['modules', chapterId, language],
      queryFn: () => callApi(contentApi.modules, { params: { chapterId }, query: { userId: studentId } }),
      enabled: chapterId > 0,
    }),
  module: (moduleId: number, language: string) =>
    queryOptions({
      queryKey: ['module', moduleId, language],
      queryFn: () => callApi(contentApi.module, { params: { moduleId } }),
    }),
  topics: (moduleId: number, language: string) =>
    queryOptions({
      queryKey: ['topics', moduleId, language],
      queryFn: () => callApi(contentApi.topics, { params: { moduleId } }),
    }),
  video: (moduleId: number, language: string) =>
    queryOptions({
      queryKey: ['video', moduleId, language],
      queryFn: () => callApi(contentApi.video, { params: { moduleId } }),
    }),
  /**
   * The quiz being taken. The server shows an unsubmitted attempt again rather than drawing
   * anew, so asking in the other language gives the same questions, translated. It is forgotten
   * when the page is left, so a retake asks the server again (which draws anew once this attempt
   * is submitted); the questions on screen stay while the other language loads.
   */
  quiz: (chapterId: number, studentId: number, language: string) =>
    queryOptions({
      queryKey: ['quiz', chapterId, language],
      queryFn: (): Promise<Quiz> =>
        chapterId === FINAL_EXAM_CHAPTER
          ? callApi(quizApi.finalExam, { params: { studentId } })
          : callApi(quizApi.questions, { params: { chapterId } }),
      retry: false,
      staleTime: Infinity,
      gcTime: 0,
      placeholderData: keepPreviousData,
    }),
  quizStatus: (chapterId: number, studentId: number) =>
    queryOptions({
      queryKey: ['quiz-status', chapterId],
      queryFn: () => callApi(progressApi.quizStatus, { params: { id: studentId, chapterId } }),
    }),
};

export function useChapters() {
  return useQuery(courseQueries.chapters(useLanguage()));
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
  return useQuery(courseQueries.modules(chapterId, useStudentId(), useLanguage()));
}

export function useModule(moduleId: number) {
  return useQuery(courseQueries.module(moduleId, useLanguage()));
}

export function useTopics(moduleId: number) {
  return useQuery(courseQueries.topics(moduleId, useLanguage()));
}

export function useVideo(moduleId: number) {
  return useQuery(courseQueries.video(moduleId, useLanguage()));
}

export function useQuiz(chapterId: number) {
  return useQuery(courseQueries.quiz(chapterId, useStudentId(), useLanguage()));
}

export function useQuizStatus(chapterId: number) {
  return useQuery(courseQueries.quizStatus(chapterId, useStudentId()));
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
