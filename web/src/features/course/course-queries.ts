import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { type Quiz, FINAL_EXAM_CHAPTER, contentApi, identityChecksApi, quizApi, seatTimeApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';
import { sharedQueries } from '../../lib/queries.ts';
import { useStoredUser } from '../../lib/session.ts';
import { progressQueries } from '../progress/progress-queries.ts';

/** The signed-in student's id (the guard guarantees one on every course page). */
export function useStudentId(): number {
  return useStoredUser()?.id ?? 0;
}

/** The language the course's texts are asked for (api.ts sends it as Accept-Language). */
function useLanguage(): string {
  return useTranslation().i18n.language;
}

/**
 * Every course query in one place: a key is written once, and every query whose answer holds
 * course text is keyed by the language, so switching to Español mid-page asks for the Spanish text
 * instead of keeping the English one.
 */
export const courseQueries = {
  chapters: (language: string) =>
    queryOptions({ queryKey: ['chapters', language], queryFn: () => callApi(contentApi.chapters) }),
  /** Every chapter's module list (each module with whether the student completed it). */
  allModuleLists: () => ['modules'] as const,
  modules: (chapterId: number, studentId: number, language: string) =>
    queryOptions({
      queryKey: [...courseQueries.allModuleLists(), chapterId, language],
      queryFn: () => callApi(contentApi.modules, { params: { chapterId }, query: { userId: studentId } }),
      enabled: chapterId > 0,
    }),
  /** Every module page's answer (each with whether the student completed it). */
  allModules: () => ['module'] as const,
  module: (moduleId: number, language: string) =>
    queryOptions({
      queryKey: [...courseQueries.allModules(), moduleId, language],
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
  /** Every quiz being taken, whichever chapter and language. */
  allQuizzes: () => ['quiz'] as const,
  /**
   * The quiz being taken. The server shows an unsubmitted attempt again rather than drawing
   * anew, so asking in the other language gives the same questions, translated. It is forgotten
   * when the page is left, so a retake asks the server again (which draws anew once this attempt
   * is submitted); the questions on screen stay while the other language loads.
   */
  quiz: (chapterId: number, studentId: number, language: string) =>
    queryOptions({
      queryKey: [...courseQueries.allQuizzes(), chapterId, language],
      queryFn: (): Promise<Quiz> =>
        chapterId === FINAL_EXAM_CHAPTER
          ? callApi(quizApi.finalExam, { params: { studentId } })
          : callApi(quizApi.questions, { params: { chapterId } }),
      retry: false,
      staleTime: Infinity,
      gcTime: 0,
      placeholderData: keepPreviousData,
    }),
  /** The student's seat time for a module (and its chapter), a chapter, or the course (decision 012). */
  seatTime: (studentId: number, query: SeatTimeQuery) =>
    queryOptions({
      queryKey: ['seat-time', studentId, query],
      queryFn: () => callApi(seatTimeApi.get, { params: { id: studentId }, query }),
      retry: false,
    }),
  /** The student's identity check: one asked now, a lock, or neither (decision 012). */
  identityCheck: (studentId: number) =>
    queryOptions({
      queryKey: ['identity-check', studentId],
      queryFn: () => callApi(identityChecksApi.get, { params: { id: studentId } }),
      retry: false,
    }),
  /** Whether the student's profile asks personal validation questions, and whether they are set (decision 050). */
  personalQuestions: (studentId: number) =>
    queryOptions({
      queryKey: ['personal-questions', studentId],
      queryFn: () => callApi(identityChecksApi.personalQuestions, { params: { id: studentId } }),
      staleTime: 60_000,
    }),
};

/** What the seat-time call is asked about: a module (and its chapter), a chapter, or the course. */
export type SeatTimeQuery = { moduleId: number } | { chapterId: number } | Record<string, never>;

export function useChapters() {
  return useQuery(courseQueries.chapters(useLanguage()));
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
  return useQuery(progressQueries.quizStatus(chapterId, useStudentId()));
}

/** After progress changes, everything that shows progress is asked again. */
export function useRefreshProgress(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      [
        progressQueries.all(),
        courseQueries.allModuleLists(),
        courseQueries.allModules(),
        sharedQueries.me().queryKey,
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  };
}
