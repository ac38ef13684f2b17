import { z } from './zod.ts';

/**
 * Every error code the API answers, with the one HTTP status it comes with. The server builds its
 * errors from this list (an unknown code does not compile), endpoints declare which of these they
 * answer, and the web app translates each code (decision 018).
 */
export const ERROR_STATUS = {
  // Any route: the request itself is wrong.
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  // Who is calling.
  UNAUTHENTICATED: 401,
  INVALID_LOGIN: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  /** The database cannot be reached (a restart, a failover): nothing was lost; try again shortly. */
  SERVICE_UNAVAILABLE: 503,
  // Registration and payment.
  DUPLICATE_ACCOUNT: 409,
  ALREADY_PAID: 409,
  PAYMENT_NOT_VERIFIED: 409,
  /** The built-in test provider refused a card (Stripe's card_error) or its details (validation_error). */
  CARD_DECLINED: 402,
  CARD_DETAILS_INVALID: 400,
  /** The test provider refused to confirm a canceled PaymentIntent (Stripe's invalid_request_error). */
  PAYMENT_INTENT_CANCELED: 400,
  // The course: order, quizzes, rules profiles, identity checks.
  MODULES_INCOMPLETE: 409,
  CHAPTER_LOCKED: 409,
  CHAPTERS_INCOMPLETE: 409,
  ALREADY_COMPLETE: 409,
  NO_OPEN_ATTEMPT: 409,
  ANSWERS_DO_NOT_MATCH: 400,
  QUIZ_NOT_PASSED: 409,
  QUESTION_BANK_TOO_SMALL: 503,
  NO_ATTEMPTS_LEFT: 409,
  ATTEMPT_WAIT: 409,
  COMPLETION_WINDOW_CLOSED: 403,
  SEAT_TIME_REQUIRED: 409,
  IDENTITY_CHECK_PENDING: 409,
  IDENTITY_CHECK_CLOSED: 409,
  COURSE_LOCKED: 423,
  /** The profile asks personal validation questions and the student has not answered them yet (decision 050). */
  PERSONAL_QUESTIONS_REQUIRED: 409,
  PERSONAL_QUESTIONS_SET: 409,
  COURSE_NOT_COMPLETE: 409,
  // Staff accounts.
  WRONG_PASSWORD: 400,
  /** A new staff password that is easy to guess (decision 047). */
  WEAK_PASSWORD: 400,
  STAFF_EXISTS: 409,
  INVALID_LINK: 400,
  OWN_ACCOUNT: 400,
  LAST_SUPER_ADMIN: 400,
  SUPER_ADMIN_ALL_COURTS: 400,
  ACCOUNT_DISABLED: 400,
  NO_SUCH_COURT: 400,
  /** A court's staff account without its court (decision 063). */
  COURT_REQUIRED: 400,
  /** A school staff account limited to a court (decision 063): the school's staff see every court. */
  SCHOOL_STAFF_ALL_COURTS: 400,
  // Admin work on students, certificates and questions.
  COMPLETION_DATE_INVALID: 400,
  CORRECT_ANSWER_REQUIRED: 400,
  /** An archived enrolment is kept as it was: its record is not corrected or readdressed. */
  ENROLMENT_ARCHIVED: 409,
  // State filings (decision 024).
  NOTHING_TO_FILE: 409,
  FILING_CLOSED: 409,
  // Certificate corrections (decision 025).
  CORRECTION_PENDING: 409,
  CORRECTION_DECIDED: 409,
  // Refunds (decision 058).
  /** A refund larger than the card payment less what was refunded already: nothing is refunded. */
  REFUND_EXCEEDS_PAYMENT: 409,
  /** The enrolment was closed by a full refund before the course was finished: no sign-in to it. */
  COURSE_REFUNDED: 403,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** A field a request got wrong, named like a schema error's path ("first_name", "answers/0"). */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });

/**
 * What an error carries beside its code and message, per code. A code not named here carries
 * nothing else. The server's errors are typed by these, and the web app parses them with them.
 */
export const ERROR_DETAILS = {
  VALIDATION_FAILED: z.object({ fields: z.array(FieldErrorSchema) }),
  DUPLICATE_ACCOUNT: z.object({
    studentId: z.number().int(),
    /** Only to the registration that found the enrolment with the same details (decision 004). */
    resetToken: z.string().optional(),
    /**
     * Decision 026: the detail another active enrolment holds, which no reset of the matched one would
     * free (the old account cannot be replaced while it is in use).
     */
    in_use: z.enum(['email', 'dl_number']).optional(),
    /**
     * With a reset token only: the enrolment it would replace is paid for. Its payment does not
     * carry over, so the page says to sign in instead (review of the registration: a paid course
     * was replaced without a word about the money).
     */
    paid: z.boolean().optional(),
  }),
  /** `provider_code`: the provider's own code (Stripe's card_declined, invalid_number...). */
  CARD_DECLINED: z.object({ type: z.literal('card_error'), provider_code: z.string() }),
  CARD_DETAILS_INVALID: z.object({ type: z.literal('validation_error'), provider_code: z.string() }),
  PAYMENT_INTENT_CANCELED: z.object({ type: z.literal('invalid_request_error'), provider_code: z.string() }),
  CHAPTER_LOCKED: z.object({ missingChapters: z.array(z.number().int()) }),
  CHAPTERS_INCOMPLETE: z.object({ missingChapters: z.array(z.number().int()) }),
  ALREADY_COMPLETE: z.object({ chapter: z.number().int() }),
  NO_ATTEMPTS_LEFT: z.object({ attempts: z.number().int() }),
  /** `opens_at`: when the next attempt may start (ISO). */
  ATTEMPT_WAIT: z.object({ opens_at: z.string() }),
  /** `ended_on`: the window's last day (YYYY-MM-DD). */
  COMPLETION_WINDOW_CLOSED: z.object({ ended_on: z.string() }),
  SEAT_TIME_REQUIRED: z.object({
    scope: z.enum(['module', 'chapter', 'course']),
    requiredSeconds: z.number().int(),
    countedSeconds: z.number().int(),
    remainingSeconds: z.number().int(),
  }),
  COURSE_LOCKED: z.object({ until: z.string().nullable(), reason: z.string() }),
  /** Why: it holds the username or the email's local part, or the estimator guesses it soon. */
  WEAK_PASSWORD: z.object({ reason: z.enum(['contains_name', 'too_guessable']) }),
} as const satisfies Partial<Record<ErrorCode, z.ZodObject>>;

type DetailedCode = keyof typeof ERROR_DETAILS;
/** What an error with this code carries beside its code and message. */
export type ErrorDetails<C extends ErrorCode> = C extends DetailedCode
  ? z.infer<(typeof ERROR_DETAILS)[C]>
  : Record<string, never>;

/** The details schema of a code (an empty object for a code that carries nothing else). */
export function errorDetailsSchema(code: ErrorCode): z.ZodObject {
  return code in ERROR_DETAILS ? ERROR_DETAILS[code as DetailedCode] : z.object({});
}

/** The body of an error with one of these codes, for the OpenAPI document. */
export function errorBodySchema(codes: readonly ErrorCode[]) {
  const [first, ...rest] = codes.map((code) =>
    z.object({
      error: z
        .object({ code: z.literal(code), message: z.string(), requestId: z.string().optional() })
        .extend(errorDetailsSchema(code).shape),
    }),
  );
  if (!first) throw new Error('errorBodySchema needs at least one code');
  return rest.length === 0 ? first : z.union([first, ...rest]);
}

/**
 * Every API error has this body: a stable code for programs and a message for people, and the
 * request's id (its x-request-id header, its log lines' reqId), which support asks for (decision 060).
 */
export const ErrorBodySchema = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      requestId: z.string().optional(),
    })
    .loose(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An error body read with its code's own details schema; UNKNOWN for a code or details this build cannot read. */
export type ParsedError = (
  | { [C in ErrorCode]: { code: C; message: string; details: ErrorDetails<C> } }[ErrorCode]
  | { code: 'UNKNOWN'; message: string; details: Record<string, unknown> }
) & { requestId?: string };

/**
 * Reads an error answer: undefined when it is not the API's envelope at all (a proxy's page, a
 * body cut off); otherwise its code with that code's details, or UNKNOWN when this build does not
 * know the code or its details have another shape (a newer server).
 */
export function parseErrorBody(json: unknown): ParsedError | undefined {
  const envelope = ErrorBodySchema.safeParse(json);
  if (!envelope.success) return undefined;
  const { code, message, requestId, ...rest } = envelope.data.error;
  const reference = requestId === undefined ? {} : { requestId };
  const known = ErrorCodeSchema.safeParse(code);
  const details = known.success ? errorDetailsSchema(known.data).safeParse(rest) : undefined;
  if (!known.success || !details?.success) return { code: 'UNKNOWN', message, details: {}, ...reference };
  // The union is keyed by code; the schema just read is that code's own.
  return { code: known.data, message, details: details.data, ...reference } as ParsedError;
}
