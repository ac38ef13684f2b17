import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';
import { IdentitySourceSchema, PERSONAL_QUESTIONS_TO_ANSWER, PersonalQuestionKeySchema } from './rules.ts';

/** Identity checks (decision 012): questions from the student's own record, and course locks. */

export const IdentityCheckReasonSchema = z.enum(['random', 'before_final']);

/** A check waiting for the student's answer. */
export const OpenIdentityCheckSchema = z.object({
  id: z.number().int(),
  /** The fact of the student's record asked about. */
  source: IdentitySourceSchema,
  /** Which question the page shows: the source, or for `personal` the personal question (`personal.<key>`). */
  question_key: z.string(),
  /** Asked at a random moment of study, or before the final exam. */
  reason: IdentityCheckReasonSchema,
  expires_at: z.string(),
  /** Seconds left to answer when the server answered (the page counts down from it). */
  seconds_left: z.number().int().min(0),
  /** For 'court': four court names, the student's among them, in a shuffled order; absent for typed answers. */
  choices: z.array(z.string()).optional(),
});
export type OpenIdentityCheck = z.infer<typeof OpenIdentityCheckSchema>;

export const CourseLockSchema = z.object({
  /** When the lock lifts by itself, or null when only an admin can unlock the course. */
  until: z.string().nullable(),
  reason: z.string(),
});

export const IdentityCheckStateSchema = z.object({
  check: OpenIdentityCheckSchema.nullable(),
  locked: CourseLockSchema.nullable(),
});
export type IdentityCheckState = z.infer<typeof IdentityCheckStateSchema>;

/**
 * The open check (one is asked now when the profile's schedule says one is due) and the course
 * lock. Under a profile without identity checks both are always null.
 */
const getIdentityCheck = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/identity-check',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: IdentityCheckStateSchema,
});

/** The student's answer: compared forgivingly with their record and never stored. */
const answerIdentityCheck = defineEndpoint({
  method: 'POST',
  path: '/api/students/:id/identity-check/:checkId',
  params: z.object({
    id: IdParam,
    checkId: IdParam,
  }),
  body: z.object({ answer: z.string().max(200) }),
  errors: ['NOT_FOUND', 'IDENTITY_CHECK_CLOSED', 'COURSE_LOCKED'],
  response: z.object({
    outcome: z.enum(['passed', 'wrong', 'timed_out']),
    /** What follows: the next question after a wrong answer with retries left, and any lock. */
    next: IdentityCheckStateSchema,
  }),
});

/** The student's personal validation questions (decision 050): whether the profile asks them, and which were chosen. */
export const PersonalQuestionsStateSchema = z.object({
  /** The student's rules profile names the `personal` source. */
  required: z.boolean(),
  /** Answers are on file (after a staff reset, false again). */
  set: z.boolean(),
  /** How many to choose and answer. */
  count: z.number().int(),
  /** Every question to choose from. */
  keys: z.array(PersonalQuestionKeySchema),
  /** The questions answered, when set. */
  chosen: z.array(PersonalQuestionKeySchema),
});
export type PersonalQuestionsState = z.infer<typeof PersonalQuestionsStateSchema>;

const getPersonalQuestions = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/personal-questions',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: PersonalQuestionsStateSchema,
});

/** An answer as typed: compared later forgivingly (case, spaces, punctuation, accents), so it needs two letters or digits. */
const PersonalAnswerSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine(
    (answer) => answer.normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '').length >= 2,
    'Give an answer of at least two letters or digits.',
  );

export const SetPersonalQuestionsSchema = z.object({
  answers: z
    .array(z.object({ key: PersonalQuestionKeySchema, answer: PersonalAnswerSchema }))
    .length(PERSONAL_QUESTIONS_TO_ANSWER)
    .refine(
      (answers) => new Set(answers.map((answer) => answer.key)).size === answers.length,
      'Choose different questions.',
    ),
});
export type SetPersonalQuestions = z.input<typeof SetPersonalQuestionsSchema>;

const setPersonalQuestions = defineEndpoint({
  method: 'PUT',
  path: '/api/students/:id/personal-questions',
  params: z.object({ id: IdParam }),
  body: SetPersonalQuestionsSchema,
  errors: ['NOT_FOUND', 'PERSONAL_QUESTIONS_SET'],
  response: PersonalQuestionsStateSchema,
});

/** Staff clear a student's personal questions (a reason, audited); the student sets new ones at the next sign-in. */
const resetPersonalQuestions = defineEndpoint({
  method: 'POST',
  path: '/api/admin/students/:id/personal-questions/reset',
  staffRoles: ['super_admin', 'admin', 'court_admin'],
  params: z.object({ id: IdParam }),
  body: z.object({ reason: z.string().trim().min(3).max(500) }),
  errors: ['NOT_FOUND'],
  response: z.object({ reset: z.literal(true) }),
});

/** An admin lifts a student's course lock (audited). */
const unlockStudentCourse = defineEndpoint({
  method: 'POST',
  path: '/api/admin/students/:id/unlock',
  staffRoles: ['super_admin', 'admin', 'court_admin'],
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.object({ unlocked: z.literal(true) }),
});

/** The identity checks and lock of a student, as the admin student detail shows them. */
export const AdminIdentitySchema = z.object({
  /** Every question asked, oldest first. */
  checks: z.array(
    z.object({
      source: IdentitySourceSchema,
      reason: IdentityCheckReasonSchema,
      asked_at: z.string(),
      /** null while the question waits for its answer. */
      outcome: z.enum(['passed', 'wrong', 'timed_out']).nullable(),
    }),
  ),
  /** Personal validation questions (decision 050): whether the profile asks them and which are answered. */
  personal: z.object({ required: z.boolean(), chosen: z.array(PersonalQuestionKeySchema) }),
  /** The lock in force now, or null. */
  lock: z
    .object({
      locked_at: z.string(),
      until: z.string().nullable(),
      reason: z.string(),
    })
    .nullable(),
});
export type AdminIdentity = z.infer<typeof AdminIdentitySchema>;

/** The calls of the server's identityChecks feature. */
export const identityChecksApi = {
  get: getIdentityCheck,
  answer: answerIdentityCheck,
  unlock: unlockStudentCourse,
  personalQuestions: getPersonalQuestions,
  setPersonalQuestions,
  resetPersonalQuestions,
} as const;
