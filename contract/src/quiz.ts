import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { Id, IdParam } from './primitives.ts';

/** Spec 9: the final exam is coded as chapter 6. */
export const FINAL_EXAM_CHAPTER = 6;
export const COURSE_CHAPTERS = [1, 2, 3, 4] as const;

/** An answer as a quiz shows it: nothing says which one is correct. */
export const QuizAnswerSchema = z.object({ id: z.number().int(), content: z.string() });

export const QuizQuestionSchema = z.object({
  id: z.number().int(),
  chapter_id: z.number().int(),
  question: z.string(),
  answers: z.array(QuizAnswerSchema),
});
export type QuizQuestion = z.infer<typeof QuizQuestionSchema>;

export const QuizSchema = z.object({
  /** The attempt the server drew; a submission is scored against it only. */
  attemptId: z.number().int(),
  chapter: z.number().int(),
  passMark: z.number().int(),
  /** Questions in this attempt (the student's rules profile decides how many). */
  questionCount: z.number().int(),
  /** Attempts the rules profile allows at this quiz in all; null is unlimited (the spec). */
  attemptsAllowed: z.number().int().nullable(),
  /**
   * true when the student's quizzes follow the spec's numbers exactly (10 passed at 7, the final
   * 20 passed at 14, unlimited retakes): the page then shows the spec's own instruction sentence.
   */
  specRules: z.boolean(),
  questions: z.array(QuizQuestionSchema),
});
export type Quiz = z.infer<typeof QuizSchema>;

const getQuizQuestions = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/questions/:chapterId',
  params: z.object({ chapterId: IdParam }),
  errors: [
    'NOT_FOUND',
    'CHAPTER_LOCKED',
    'CHAPTERS_INCOMPLETE',
    'MODULES_INCOMPLETE',
    'ALREADY_COMPLETE',
    'SEAT_TIME_REQUIRED',
    'NO_ATTEMPTS_LEFT',
    'ATTEMPT_WAIT',
    'QUESTION_BANK_TOO_SMALL',
    'COMPLETION_WINDOW_CLOSED',
    'COURSE_LOCKED',
    'IDENTITY_CHECK_PENDING',
    'PERSONAL_QUESTIONS_REQUIRED',
  ],
  response: QuizSchema,
});

const getFinalExamQuestions = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/finalExamQuestions/:studentId',
  params: z.object({ studentId: IdParam }),
  errors: [
    'CHAPTERS_INCOMPLETE',
    'ALREADY_COMPLETE',
    'SEAT_TIME_REQUIRED',
    'NO_ATTEMPTS_LEFT',
    'ATTEMPT_WAIT',
    'QUESTION_BANK_TOO_SMALL',
    'COMPLETION_WINDOW_CLOSED',
    'COURSE_LOCKED',
    'IDENTITY_CHECK_PENDING',
    'PERSONAL_QUESTIONS_REQUIRED',
  ],
  response: QuizSchema,
});

const getQuestionAnswers = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/answers/:questionId',
  params: z.object({ questionId: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.array(QuizAnswerSchema),
});

export const ResultAnswerSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  correct: z.boolean(),
  selected: z.boolean(),
});

export const ResultQuestionSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  explanation: z.string().nullable(),
  answers: z.array(ResultAnswerSchema),
});
export type ResultQuestion = z.infer<typeof ResultQuestionSchema>;

export const QuizResultSchema = z.object({
  submissionId: z.number().int(),
  status: z.enum(['PASS', 'FAIL']),
  score: z.number().int(),
  total: z.number().int(),
  chapter: z.number().int(),
  questionDisplay: z.array(ResultQuestionSchema),
  isFinal: z.boolean(),
});
export type QuizResult = z.infer<typeof QuizResultSchema>;

/** A quiz's answers as Submit Quiz sends them (spec 7 POST /quiz/score). */
export const QuizSubmissionSchema = z.object({
  studentId: Id,
  /** 1-4, or 6 for the final exam. */
  chapter: Id,
  /** The attempt being answered; without it, the student's open attempt for that chapter. */
  attemptId: Id.optional(),
  questions: z
    .array(z.object({ question: Id, answer: Id }))
    .min(1)
    .max(50),
});
export type QuizSubmission = z.input<typeof QuizSubmissionSchema>;

const scoreQuiz = defineEndpoint({
  method: 'POST',
  path: '/api/quiz/score',
  body: QuizSubmissionSchema,
  errors: [
    'NOT_FOUND',
    'CHAPTER_LOCKED',
    'CHAPTERS_INCOMPLETE',
    'NO_OPEN_ATTEMPT',
    'ANSWERS_DO_NOT_MATCH',
    'ALREADY_COMPLETE',
    'COMPLETION_WINDOW_CLOSED',
    'COURSE_LOCKED',
    'IDENTITY_CHECK_PENDING',
    'PERSONAL_QUESTIONS_REQUIRED',
  ],
  response: QuizResultSchema,
});

/** The calls of the server's quiz feature. */
export const quizApi = {
  questions: getQuizQuestions,
  finalExam: getFinalExamQuestions,
  answers: getQuestionAnswers,
  score: scoreQuiz,
} as const;
