import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { Id, IdParam } from './primitives.ts';

const StudentIdParams = z.object({ id: IdParam });

export const QuizStatusSchema = z.object({
  complete: z.boolean(),
  /** The latest submitted attempt's outcome, or null before any. */
  status: z.enum(['PASS', 'FAIL']).nullable(),
});
export type QuizStatus = z.infer<typeof QuizStatusSchema>;

const getCompletedChapters = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/completedChapters',
  params: StudentIdParams,
  response: z.array(z.number().int()),
});

const getQuizStatus = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/quizStatus/:chapterId',
  params: StudentIdParams.extend({ chapterId: IdParam }),
  errors: ['NOT_FOUND'],
  response: QuizStatusSchema,
});

const completeModule = defineEndpoint({
  method: 'POST',
  path: '/api/students/moduleComplete',
  body: z.object({ studentId: Id, moduleId: Id }),
  errors: [
    'NOT_FOUND',
    'CHAPTER_LOCKED',
    'SEAT_TIME_REQUIRED',
    'COMPLETION_WINDOW_CLOSED',
    'COURSE_LOCKED',
    'IDENTITY_CHECK_PENDING',
    'PERSONAL_QUESTIONS_REQUIRED',
  ],
  response: z.object({ saved: z.literal(true) }),
});

const completeChapter = defineEndpoint({
  method: 'POST',
  path: '/api/students/chapterComplete',
  body: z.object({ studentId: Id, chapterId: Id }),
  errors: ['NOT_FOUND', 'CHAPTER_LOCKED', 'MODULES_INCOMPLETE', 'QUIZ_NOT_PASSED'],
  response: z.object({ saved: z.literal(true) }),
});

/** The calls of the server's progress feature. */
export const progressApi = {
  completedChapters: getCompletedChapters,
  quizStatus: getQuizStatus,
  completeModule: completeModule,
  completeChapter: completeChapter,
} as const;
