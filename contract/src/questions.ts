import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';

/** Questions (spec 2 /admin/modify-questions, 7 edit calls, 8 messages). */

export const AdminQuestionSchema = z.object({
  id: z.number().int(),
  chapter_id: z.number().int(),
  question: z.string(),
  question_es: z.string().nullable(),
  active: z.boolean(),
  answers: z.array(
    z.object({
      id: z.number().int(),
      content: z.string(),
      content_es: z.string().nullable(),
      correct: z.boolean(),
    }),
  ),
});
export type AdminQuestion = z.infer<typeof AdminQuestionSchema>;

/**
 * The question banks are edited by full admins; clerks and court-limited admins do not change
 * the course (decision 011).
 */
const QUESTION_EDITORS = ['super_admin', 'admin'] as const;

const getAdminQuestion = defineEndpoint({
  method: 'GET',
  path: '/api/admin/questions/:id',
  staffRoles: QUESTION_EDITORS,
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: AdminQuestionSchema,
});

/** A question's text and an answer's, as both the spec's edit calls and the one Save check them. */
const QuestionText = z.string().trim().min(1).max(2000);
const AnswerText = z.string().trim().min(1).max(1000);

const editQuestion = defineEndpoint({
  method: 'POST',
  path: '/api/admin/edit/question/:id',
  staffRoles: QUESTION_EDITORS,
  params: z.object({ id: IdParam }),
  body: z.object({
    content: QuestionText,
    /** The Spanish text; left as it is when absent. */
    content_es: z.string().trim().max(2000).optional(),
  }),
  errors: ['NOT_FOUND'],
  response: AdminQuestionSchema,
});

const editAnswer = defineEndpoint({
  method: 'POST',
  path: '/api/admin/edit/answer/:id',
  staffRoles: QUESTION_EDITORS,
  params: z.object({ id: IdParam }),
  body: z.object({
    content: AnswerText,
    content_es: z.string().trim().max(1000).optional(),
    /** true makes this the question's one correct answer (the others become incorrect). */
    correct: z.boolean().optional(),
  }),
  errors: ['NOT_FOUND', 'CORRECT_ANSWER_REQUIRED'],
  response: AdminQuestionSchema,
});

/**
 * The question page's one Save (decision 021): the question and all its answers in both languages,
 * and which answer is correct, saved together or not at all. The spec's two edit calls above stay
 * for single changes.
 */
export const SaveQuestionSchema = z.object({
  content: QuestionText,
  content_es: z.string().trim().max(2000),
  answers: z
    .array(
      z.object({
        id: z.number().int().positive(),
        content: AnswerText,
        content_es: z.string().trim().max(1000),
      }),
    )
    .min(2)
    .max(10),
  correct_answer_id: z.number().int().positive(),
});
export type SaveQuestion = z.infer<typeof SaveQuestionSchema>;

const saveQuestion = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/questions/:id',
  staffRoles: QUESTION_EDITORS,
  params: z.object({ id: IdParam }),
  body: SaveQuestionSchema,
  errors: ['NOT_FOUND'],
  response: AdminQuestionSchema,
});

/** The calls of the server's questions feature. */
export const questionsApi = {
  get: getAdminQuestion,
  save: saveQuestion,
  editQuestion: editQuestion,
  editAnswer: editAnswer,
} as const;
