import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';

/**
 * A course rules profile (decision 012): what one jurisdiction requires of its course.
 * Profiles are reviewed files under content/rules/; a court points at one, and a student keeps
 * the profile version of their enrolment. The `default` profile is the spec's course exactly.
 */
const TranslatedText = z.object({ en: z.string().min(1), es: z.string().min(1) });

const QuizLimitsSchema = z
  .object({
    /** Questions drawn per attempt. */
    questions: z.number().int().positive(),
    /** Correct answers needed to pass. */
    passMark: z.number().int().positive(),
    /** Attempts allowed in all; null is unlimited (the spec). */
    attempts: z.number().int().positive().nullable(),
    /** Minutes a student waits after a failed attempt before the next. */
    waitMinutes: z.number().int().min(0),
  })
  .refine((quiz) => quiz.passMark <= quiz.questions, { message: 'passMark cannot exceed questions' });

/**
 * What an identity question asks (decision 050): the date of birth, the ZIP code and the house
 * number of the registered address, the court (chosen from four), or one of the personal
 * validation questions the student answered (`personal`). `dl_last4` is kept readable for profile
 * versions loaded before decision 050 but is never asked: the sign-in already carries the licence
 * number (and the last name), so it proves nothing.
 */
export const IDENTITY_SOURCES = ['dob', 'zip', 'street_number', 'court', 'personal', 'dl_last4'] as const;
export const IdentitySourceSchema = z.enum(IDENTITY_SOURCES);
export type IdentitySource = z.infer<typeof IdentitySourceSchema>;
/** The sources a sign-in already carries: never asked. */
export const SIGN_IN_SOURCES: readonly IdentitySource[] = ['dl_last4'];

/**
 * Personal validation questions (decision 050, as Texas asks: 16 TAC 84.502): a student whose
 * profile names the `personal` source chooses PERSONAL_QUESTIONS_TO_ANSWER of these at the first
 * sign-in after payment and answers them; only salted hashes of the answers are kept.
 */
export const PERSONAL_QUESTION_KEYS = [
  'first_car_make',
  'birth_city',
  'grandparent_first_name',
  'first_pet_name',
  'childhood_best_friend',
  'elementary_school',
  'favorite_teacher',
  'first_job',
  'childhood_street',
  'favorite_childhood_food',
  'first_concert',
  'oldest_cousin_first_name',
] as const;
export const PersonalQuestionKeySchema = z.enum(PERSONAL_QUESTION_KEYS);
export type PersonalQuestionKey = z.infer<typeof PersonalQuestionKeySchema>;
export const PERSONAL_QUESTIONS_TO_ANSWER = 5;

export const RulesProfileSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** Raised with every reviewed change; attempts and certificates record the version they ran under. */
  version: z.number().int().positive(),
  name: TranslatedText,
  description: TranslatedText,
  /**
   * The state edition its students are served beside the shared course (content/editions/<id>):
   * the state's own modules and questions. null: the shared course alone.
   */
  edition: z
    .string()
    .regex(/^[a-z]{2,10}$/)
    .nullable()
    .default(null),
  seatTime: z.object({
    /** Active minutes a student must spend in each module before Mark Complete. */
    minutesPerModule: z.number().int().min(0),
    /** Active minutes in a chapter's modules before its quiz opens. */
    minutesPerChapter: z.number().int().min(0),
    /** Active minutes in the whole course before the final exam opens. */
    minutesBeforeFinal: z.number().int().min(0),
    /** A gap between heartbeats longer than this stops the clock (nothing is counted for it). */
    idleCutoffMinutes: z.number().int().positive(),
    /** Most active minutes counted per day (in the school's time zone); null is no cap. */
    dailyCapMinutes: z.number().int().positive().nullable(),
  }),
  identityChecks: z.object({
    enabled: z.boolean(),
    /** About how often (in counted minutes) a check is asked, at a random moment. */
    everyMinutes: z.number().int().positive(),
    /** Seconds the student has to answer. */
    answerSeconds: z.number().int().positive(),
    /** Always ask one before the final exam opens. */
    beforeFinal: z.boolean(),
    /** What a question asks, from the student's own record. */
    sources: z.array(IdentitySourceSchema).min(1),
    /** Further questions after a wrong answer before the check counts as missed. */
    retries: z.number().int().min(0),
    /** Missed checks in a row that lock the course. */
    missesBeforeLock: z.number().int().positive(),
    /** Hours a lock lasts. */
    lockHours: z.number().int().positive(),
    /** Locks after which only an admin can unlock the course. */
    locksBeforeAdminUnlock: z.number().int().positive(),
  }),
  quizzes: z.object({ chapter: QuizLimitsSchema, final: QuizLimitsSchema }),
  completion: z.object({
    /** Days from registration to finish the course; null is no limit. */
    windowDays: z.number().int().positive().nullable(),
    /** Days before the deadline (window or court due date) from which the student is warned. */
    warnDaysBefore: z.number().int().min(0),
  }),
  certificate: z.object({
    /** Who receives the certificate: the student and the court by email (the spec), the student only, or held for the state's report. */
    routing: z.enum(['student_and_court', 'student_only', 'held_for_state_report']),
    /** Years the school keeps the records. */
    retentionYears: z.number().int().positive(),
    /** held_for_state_report only: once the state filing is marked filed, the court is emailed its copy too (decision 024). */
    courtCopyAfterFiling: z.boolean().optional(),
  }),
});
export type RulesProfile = z.infer<typeof RulesProfileSchema>;

const QuizSummarySchema = z.object({
  questions: z.number().int(),
  passMark: z.number().int(),
  attempts: z.number().int().nullable(),
  waitMinutes: z.number().int(),
});

/**
 * A profile's rules as a driver needs to know them before paying and at every step (decision 021):
 * minimum time, identity checks, quiz and final sizes and pass marks, attempts and waits, the
 * time allowed, and where the certificate goes.
 */
export const RulesSummarySchema = z.object({
  profile: z.object({ id: z.string(), version: z.number().int(), name: z.string() }),
  seatTime: RulesProfileSchema.shape.seatTime,
  identityChecks: z.object({ enabled: z.boolean(), answerSeconds: z.number().int() }),
  quizzes: z.object({ chapter: QuizSummarySchema, final: QuizSummarySchema }),
  /** Days from registration to finish; null is no limit. */
  windowDays: z.number().int().nullable(),
  /** Who the certificate goes to (the score page says so). */
  certificateRouting: RulesProfileSchema.shape.certificate.shape.routing,
  /** Whether the court has an address the certificate is emailed to (without one, it reaches the student only). */
  courtHasEmail: z.boolean(),
});
export type RulesSummary = z.infer<typeof RulesSummarySchema>;

/** The student's course rules as the pages need them (GET /api/students/:id/rules). */
export const StudentRulesSchema = RulesSummarySchema.extend({
  /** The last day to finish (the earlier of the window's end and the court's due date), or null. */
  deadline: z.string().nullable(),
  /** true once the deadline is within the profile's warning days. */
  deadlineWarning: z.boolean(),
  /** The completion window's last day once it has ended (course calls then answer 403 COMPLETION_WINDOW_CLOSED), else null. */
  closedOn: z.string().nullable(),
  /** Attempts staff granted beyond the profile's, per quiz (1-4, or 6 for the final). */
  extraAttempts: z.array(z.object({ chapter: z.number().int(), attempts: z.number().int() })),
});
export type StudentRules = z.infer<typeof StudentRulesSchema>;

const getStudentRules = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/rules',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: StudentRulesSchema,
});

/** A court's rules for a driver choosing it: the current version of the court's profile. */
const getCourtRules = defineEndpoint({
  method: 'GET',
  path: '/api/public/courts/:id/rules',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: RulesSummarySchema,
});

/**
 * An exception staff made to a student's rules, on the record: one more attempt at a
 * chapter quiz (1-4) or the final (6), or more days in the completion window.
 */
export const RulesExceptionSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['extra_attempt', 'extend_window']),
  chapter: z.number().int().nullable(),
  days: z.number().int().nullable(),
  reason: z.string(),
  granted_by: z.string(),
  created_at: z.string(),
});
export type RulesException = z.infer<typeof RulesExceptionSchema>;

/** The quizzes an extra attempt can be for: a chapter quiz (1-4) or the final (6). */
export const EXCEPTION_QUIZZES = [1, 2, 3, 4, 6] as const;

const ExceptionReason = z.string().trim().min(3).max(500);
export const GrantRulesExceptionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('extra_attempt'),
    chapter: z
      .number()
      .int()
      .refine((chapter) => EXCEPTION_QUIZZES.some((quiz) => quiz === chapter), 'a chapter quiz (1-4) or the final (6)'),
    reason: ExceptionReason,
  }),
  z.object({ kind: z.literal('extend_window'), days: z.number().int().min(1).max(365), reason: ExceptionReason }),
]);
export type GrantRulesException = z.infer<typeof GrantRulesExceptionSchema>;

/** An admin grants an exception (never a clerk); the answer is every exception of the student. */
const grantRulesException = defineEndpoint({
  method: 'POST',
  path: '/api/admin/students/:id/exceptions',
  staffRoles: ['super_admin', 'admin', 'court_admin'],
  params: z.object({ id: IdParam }),
  body: GrantRulesExceptionSchema,
  errors: ['NOT_FOUND', 'ENROLMENT_ARCHIVED'],
  response: z.array(RulesExceptionSchema),
  status: 201,
});

/** The calls of the server's rules feature. */
export const rulesApi = {
  studentRules: getStudentRules,
  courtRules: getCourtRules,
  grantException: grantRulesException,
} as const;
