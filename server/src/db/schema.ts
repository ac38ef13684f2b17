import { sql } from 'drizzle-orm';
import { IDENTITY_SOURCES, PERSONAL_QUESTION_KEYS } from '@ts/contract';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  customType,
  json,
  jsonb,
  primaryKey,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Binary columns (the certificate PDFs), as Buffers in TypeScript. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const moment = (name: string) => timestamp(name, { withTimezone: true });

export const counties = pgTable(
  'counties',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    state: text('state').notNull(),
  },
  (t) => [uniqueIndex('counties_state_name_key').on(t.state, t.name)],
);

export const courts = pgTable(
  'courts',
  {
    id: serial('id').primaryKey(),
    countyId: integer('county_id')
      .notNull()
      .references(() => counties.id),
    name: text('name').notNull(),
    /** The court clerk's address for certificates (decision 010). */
    email: text('email'),
    /** A court may charge a price other than COURSE_PRICE_CENTS. */
    priceCents: integer('price_cents'),
    /** The rules profile (content/rules/<id>.json) the court's students take the course under. */
    rulesProfileId: text('rules_profile_id').notNull().default('default'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('courts_name_key').on(t.name), index('courts_county_idx').on(t.countyId)],
);

export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['super_admin', 'admin', 'clerk'] }).notNull(),
    /** Set for an admin or clerk limited to one court (spec 3, 6; decision 011). */
    courtId: integer('court_id').references(() => courts.id),
    createdAt: createdAt(),
    disabledAt: moment('disabled_at'),
    /** When the member last chose a password (null: a new account still waiting for its set-password link). */
    passwordSetAt: moment('password_set_at'),
  },
  (t) => [
    uniqueIndex('staff_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('staff_email_key').on(sql`lower(${t.email})`),
    check('staff_role_check', sql`${t.role} in ('super_admin', 'admin', 'clerk')`),
    // An admin or a clerk can be limited to one court, never a super_admin (decision 011).
    check('staff_court_role_check', sql`${t.courtId} is null or ${t.role} in ('admin', 'clerk')`),
  ],
);

/**
 * One-time links that let a staff member choose a password (a new account, or a reset by a
 * super_admin). Only the SHA-256 of the token is stored; a password is never sent by email.
 */
export const staffPasswordTokens = pgTable(
  'staff_password_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    createdByStaffId: integer('created_by_staff_id').references(() => staff.id),
    createdAt: createdAt(),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
  },
  (t) => [index('staff_password_tokens_staff_idx').on(t.staffId)],
);

/**
 * Append-only record of every change staff make to the school's data: who, what, when, and the
 * record before and after (secrets such as password hashes are never written here).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: integer('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_entity_idx').on(t.entityType, t.entityId)],
);

/**
 * One row per enrolment: a registration, its payment and its progress. A retake or a
 * duplicate-account replacement archives the row (archived_at) and a new registration makes
 * a new one, so old progress, payments and certificates stay (ARCHITECTURE "never thrown away").
 * Email and licence number are unique among enrolments that are not archived.
 */
export const students = pgTable(
  'students',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    dlNumber: text('dl_number').notNull(),
    dob: date('dob', { mode: 'string' }).notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    courtId: integer('court_id')
      .notNull()
      .references(() => courts.id),
    enrolledByStaffId: integer('enrolled_by_staff_id').references(() => staff.id),
    /** The rules profile and version of the court when the student enrolled: kept for the whole enrolment. */
    rulesProfileId: text('rules_profile_id').notNull().default('default'),
    rulesProfileVersion: integer('rules_profile_version').notNull().default(1),
    /** The date the court expects the certificate by, when the student gave one at registration. */
    courtDueDate: date('court_due_date', { mode: 'string' }),
    /** The court's case or citation number, when the student gave one (decision 024): matches the certificate to the ticket. */
    caseNumber: text('case_number'),
    /**
     * The hash of the token the registering browser holds in an HttpOnly cookie (decision 048):
     * with it, or signed in as the student, a caller may have the enrolment's card form; for a day
     * from `createdAt`. Null for a staff enrolment (paid already).
     */
    paymentTokenHash: text('payment_token_hash'),
    createdAt: createdAt(),
    paymentAt: moment('payment_at'),
    completedAt: moment('completed_at'),
    archivedAt: moment('archived_at'),
    archiveReason: text('archive_reason'),
    /**
     * Raised by a trigger on every change to the student's module and chapter completions
     * (migration 0010): the session lookup reads it, so an instance's copy of the student's
     * progress is known fresh or stale without reading the completions (decision 019).
     */
    progressVersion: integer('progress_version').notNull().default(0),
    /**
     * The language the student reads the school in (decision 056): the one they registered in,
     * then whatever they switch to in the app or staff set. Their emails are written in it.
     */
    language: text('language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    /** The student turned off the reminders before their court's date and their window's end (decision 059). */
    remindersOff: boolean('reminders_off').notNull().default(false),
  },
  (t) => [
    check('students_language_check', sql`${t.language} in ('en', 'es')`),
    uniqueIndex('students_active_email_key')
      .on(t.email)
      .where(sql`${t.archivedAt} is null`),
    uniqueIndex('students_active_dl_number_key')
      .on(t.dlNumber)
      .where(sql`${t.archivedAt} is null`),
    index('students_court_idx').on(t.courtId),
    index('students_dl_number_idx').on(t.dlNumber),
    index('students_email_idx').on(t.email),
  ],
);

/** Server-side sessions; the cookie holds a random token and this table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    studentId: integer('student_id').references(() => students.id),
    staffId: integer('staff_id').references(() => staff.id),
    createdAt: createdAt(),
    expiresAt: moment('expires_at').notNull(),
    endedAt: moment('ended_at'),
  },
  (t) => [
    check('sessions_one_owner_check', sql`(${t.studentId} is null) <> (${t.staffId} is null)`),
    index('sessions_student_idx').on(t.studentId),
    index('sessions_staff_idx').on(t.staffId),
  ],
);

/**
 * The guess throttle's failures, across every instance (features/auth/throttle.ts, decision 055):
 * a row per guessed subject (a licence number, a staff account or a typed name) and per client
 * address, keyed by a hash, never a licence number or an address, with the moments of its failed
 * guesses. A guess locks its subject's row, so the failures it reads are the latest.
 */
export const failedGuesses = pgTable('failed_guesses', {
  keyHash: text('key_hash').primaryKey(),
  failedAt: timestamp('failed_at', { withTimezone: true }).array().notNull(),
});

/** Single-use proof that lets a duplicate registration replace the existing enrolment (decision 004). */
export const resetTokens = pgTable('reset_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  studentId: integer('student_id')
    .notNull()
    .references(() => students.id),
  createdAt: createdAt(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  /**
   * The email and licence number of the registration the token was handed to (decision 026): the
   * reset archives the old enrolment only if no other active one holds either, so the new
   * registration that follows cannot fail after the old course is gone.
   */
  email: text('email'),
  dlNumber: text('dl_number'),
});

/**
 * The course content's version (decision 019): one row, raised by a statement trigger
 * on every write to chapters, modules, topics, videos, questions or answers, whoever makes it. The
 * session lookup reads it, so every instance serves its in-memory copy of the content only while
 * that copy is of the version a request saw when it started.
 */
export const contentVersion = pgTable(
  'content_version',
  {
    id: integer('id').primaryKey().default(1),
    version: integer('version').notNull(),
  },
  (t) => [check('content_version_one_row', sql`${t.id} = 1`)],
);

/** Chapters 1-4 and 6, the final exam (spec 3). */
export const chapters = pgTable('chapters', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  titleEs: text('title_es'),
  descriptionEs: text('description_es'),
  position: integer('position').notNull(),
});

export const modules = pgTable(
  'modules',
  {
    id: serial('id').primaryKey(),
    /** Stable key from the content files, so loading the course again never duplicates or overwrites. */
    contentKey: text('content_key').notNull(),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id),
    title: text('title').notNull(),
    titleEs: text('title_es'),
    position: integer('position').notNull(),
    /** A state edition's module (content/editions/<id>): served only to that edition's students; null: everyone's. */
    edition: text('edition'),
  },
  (t) => [uniqueIndex('modules_content_key_key').on(t.contentKey), index('modules_chapter_idx').on(t.chapterId)],
);

/**
 * Money received for an enrolment. Immutable: a payment is never updated or deleted. A card
 * payment is unique per provider payment id; a manual one records the staff member who marked it.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    method: text('method', { enum: ['card', 'manual'] }).notNull(),
    provider: text('provider', { enum: ['stripe', 'test'] }),
    providerPaymentId: text('provider_payment_id'),
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    /** How a manual payment was taken (decision 026); 'waived' is a course given free (amount 0). */
    manualMethod: text('manual_method', { enum: ['phone', 'cheque', 'voucher', 'waived'] }),
    recordedByStaffId: integer('recorded_by_staff_id').references(() => staff.id),
    /** The last four digits of the card that paid, where the provider gave them (decision 058: the receipt). */
    cardLast4: text('card_last4'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_id_key').on(t.providerPaymentId),
    index('payments_student_idx').on(t.studentId),
  ],
);

/**
 * Money returned on a card payment through the provider (decision 058): made by staff here, or in
 * the provider's dashboard and heard by its webhook. One row per provider refund (its id unique), so
 * the API's answer and the webhook's copy are one refund. Only its status is ever updated.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    providerRefundId: text('provider_refund_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Why, as staff gave it; the provider's own reason (or none) for a dashboard refund. */
    reason: text('reason'),
    status: text('status', { enum: ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] }).notNull(),
    /** Who refunded it here; null for a refund made in the provider's dashboard. */
    staffId: integer('staff_id').references(() => staff.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refunds_provider_refund_id_key').on(t.providerRefundId),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_created_idx').on(t.createdAt),
    check('refunds_amount_positive_check', sql`${t.amountCents} > 0`),
  ],
);

/**
 * The PaymentIntents this school asked the provider for, one per enrolment attempt. Fulfilment
 * trusts a provider's intent only if it is listed here for that enrolment, with this amount.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    provider: text('provider', { enum: ['stripe', 'test'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    clientSecret: text('client_secret').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payment_intents_student_idx').on(t.studentId)],
);

/** Provider events already handled (webhooks are delivered at least once). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

/**
 * The built-in test provider's own records: it plays Stripe's part when no Stripe keys are set,
 * so its PaymentIntents live in the database like any other state (any instance can answer).
 */
export const testProviderIntents = pgTable(
  'test_provider_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    metadata: text('metadata').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_provider_intents_idempotency_key').on(t.idempotencyKey)],
);

/** A topic section of a module: HTML rendered from the reviewed Markdown, in English and Spanish. */
export const topics = pgTable(
  'topics',
  {
    id: serial('id').primaryKey(),
    contentKey: text('content_key').notNull(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    titleEs: text('title_es'),
    htmlContent: text('html_content').notNull(),
    htmlContentEs: text('html_content_es'),
  },
  (t) => [uniqueIndex('topics_content_key_key').on(t.contentKey), index('topics_module_idx').on(t.moduleId)],
);

/** Spec 3: an interactive video question of a module (start clip, two answers, an outcome clip each). */
export const videos = pgTable(
  'videos',
  {
    id: serial('id').primaryKey(),
    contentKey: text('content_key').notNull(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id),
    path: text('path').notNull(),
    question: text('question').notNull(),
    correctAnswer: text('correct_answer').notNull(),
    incorrectAnswer: text('incorrect_answer').notNull(),
    questionEs: text('question_es'),
    correctAnswerEs: text('correct_answer_es'),
    incorrectAnswerEs: text('incorrect_answer_es'),
  },
  (t) => [uniqueIndex('videos_content_key_key').on(t.contentKey), uniqueIndex('videos_module_key').on(t.moduleId)],
);

/** A chapter's question bank (the final exam draws from all four chapters' banks, decision 008). */
export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    contentKey: text('content_key').notNull(),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id),
    moduleKey: text('module_key'),
    question: text('question').notNull(),
    questionEs: text('question_es'),
    explanation: text('explanation'),
    explanationEs: text('explanation_es'),
    /** Retired questions are never drawn again; past results keep their own copy. */
    active: boolean('active').notNull().default(true),
    /** A state edition's question: drawn only for that edition's students; null: everyone's. */
    edition: text('edition'),
  },
  (t) => [uniqueIndex('questions_content_key_key').on(t.contentKey), index('questions_chapter_idx').on(t.chapterId)],
);

export const answers = pgTable(
  'answers',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id),
    position: integer('position').notNull(),
    content: text('content').notNull(),
    contentEs: text('content_es'),
    isCorrect: boolean('is_correct').notNull(),
  },
  (t) => [uniqueIndex('answers_question_position_key').on(t.questionId, t.position)],
);

/** Modules a student marked complete (spec 4). */
export const moduleCompletions = pgTable(
  'module_completions',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id),
    completedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.moduleId] })],
);

/**
 * One quiz or final exam attempt: the questions the server drew for it, in order, and once
 * submitted the answers, the score and a copy of what was shown, so a later edit of a question
 * never changes a result already given.
 */
export const quizAttempts = pgTable(
  'quiz_attempts',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id),
    questionIds: jsonb('question_ids').$type<number[]>().notNull(),
    /**
     * Decision 022: each drawn question's answer ids in the order this attempt shows them, shuffled
     * at the draw (question id -> answer ids). Null for attempts drawn before: stored order.
     */
    answerOrder: jsonb('answer_order').$type<Record<string, number[]>>(),
    createdAt: createdAt(),
    submittedAt: moment('submitted_at'),
    score: integer('score'),
    passed: boolean('passed'),
    /**
     * What the results page showed, in the language it was shown in (`{ "es": [...] }`; both
     * languages before decision 036): a record, written once and never queried into, so `json`
     * (the text, checked) rather than `jsonb` (parsed into a tree on every write, most of the
     * database's work for a final's 28 kB; decision 029).
     */
    result: json('result'),
    /** The rules profile version the attempt was drawn and graded under. */
    rulesProfileId: text('rules_profile_id').notNull().default('default'),
    rulesProfileVersion: integer('rules_profile_version').notNull().default(1),
  },
  (t) => [
    index('quiz_attempts_student_chapter_idx').on(t.studentId, t.chapterId),
    // One open attempt per student and quiz: two draws at once save one (decision 055).
    uniqueIndex('quiz_attempts_one_open_key')
      .on(t.studentId, t.chapterId)
      .where(sql`${t.submittedAt} is null`),
  ],
);

/**
 * An exception staff made to a student's rules, on the record: one more attempt at a
 * quiz or the final, or more days in the completion window. Never deleted; each counts.
 */
export const rulesExceptions = pgTable(
  'rules_exceptions',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    kind: text('kind').$type<'extra_attempt' | 'extend_window'>().notNull(),
    /** The quiz (1-4) or the final (6) an extra attempt is for. */
    chapterId: integer('chapter_id').references(() => chapters.id),
    /** The days a window is extended by. */
    days: integer('days'),
    reason: text('reason').notNull(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('rules_exceptions_student_idx').on(t.studentId),
    check(
      'rules_exceptions_kind_check',
      sql`(${t.kind} = 'extra_attempt' and ${t.chapterId} is not null and ${t.days} is null) or (${t.kind} = 'extend_window' and ${t.chapterId} is null and ${t.days} between 1 and 365)`,
    ),
  ],
);

/** Chapters a student completed, each through a passing attempt (spec 4). */
export const chapterCompletions = pgTable(
  'chapter_completions',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id),
    attemptId: integer('attempt_id')
      .notNull()
      .references(() => quizAttempts.id),
    completedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.chapterId] })],
);

/** Gap-free certificate numbers per year: the counter row is updated inside the issuing transaction. */
export const certificateCounters = pgTable('certificate_counters', {
  year: integer('year').primaryKey(),
  lastValue: integer('last_value').notNull(),
});

/**
 * An issued certificate of completion: a human-readable number, an immutable snapshot of what it
 * certifies, and the PDF itself with its SHA-256. One per completion (source 'completion'); a
 * super_admin may issue more with a chosen date (source 'admin'), and the old ones stay.
 * The PDF is rendered from the snapshot after the issuing transaction (decision 019):
 * by the delivery worker, or by the first download, whichever comes first; until then both
 * columns are null.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    source: text('source', { enum: ['completion', 'admin', 'correction'] }).notNull(),
    issuedByStaffId: integer('issued_by_staff_id').references(() => staff.id),
    completionDate: date('completion_date', { mode: 'string' }).notNull(),
    snapshot: jsonb('snapshot').notNull(),
    pdf: bytea('pdf'),
    pdfSha256: text('pdf_sha256'),
    rulesProfileId: text('rules_profile_id').notNull().default('default'),
    rulesProfileVersion: integer('rules_profile_version').notNull().default(1),
    /** Who the profile sends it to (decision 012); held_for_state_report sends no court email. */
    routing: text('routing', { enum: ['student_and_court', 'student_only', 'held_for_state_report'] })
      .notNull()
      .default('student_and_court'),
    /** Kept at least until this date (the profile's retention years). */
    retainUntil: date('retain_until', { mode: 'string' }),
    issuedAt: createdAt(),
    /** When the court's own staff acknowledged receiving it, and who (decision 025); set once. */
    acknowledgedAt: moment('acknowledged_at'),
    acknowledgedByStaffId: integer('acknowledged_by_staff_id').references(() => staff.id),
    /** A correction's reissue (decision 025): the certificate this one replaces, free, with a new number. */
    replacesId: integer('replaces_id').references((): AnyPgColumn => certificates.id),
    /** Set on the replaced certificate when its correction is approved: it stays, marked superseded. */
    supersededAt: moment('superseded_at'),
    /**
     * The correction's reissue that superseded it. An approval supersedes every current
     * certificate of the student but the reissue replaces (replacesId) only the newest, so
     * /verify names the reissue for the others from here.
     */
    supersededById: integer('superseded_by_id').references((): AnyPgColumn => certificates.id),
  },
  (t) => [
    uniqueIndex('certificates_number_key').on(t.number),
    // A certificate is replaced at most once; /verify finds the replacement by this index.
    uniqueIndex('certificates_replaces_key').on(t.replacesId),
    uniqueIndex('certificates_one_per_completion_key')
      .on(t.studentId)
      .where(sql`${t.source} = 'completion'`),
    index('certificates_student_idx').on(t.studentId),
    check('certificates_pdf_with_hash_check', sql`(${t.pdf} is null) = (${t.pdfSha256} is null)`),
  ],
);

/**
 * One row per recipient of a certificate email, which is also the durable queue: a worker claims
 * due rows, sends, and records the outcome; failures retry with backoff for over a day and then
 * wait as 'failed' for an admin to resend (decision 010).
 */
export const certificateDeliveries = pgTable(
  'certificate_deliveries',
  {
    id: serial('id').primaryKey(),
    certificateId: integer('certificate_id')
      .notNull()
      .references(() => certificates.id),
    recipient: text('recipient', { enum: ['student', 'court'] }).notNull(),
    email: text('email').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed', 'cancelled'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull(),
    lockedUntil: moment('locked_until'),
    lastError: text('last_error'),
    sentAt: moment('sent_at'),
    /** When this round of sending began: at issue, or when an admin resent it. */
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('certificate_deliveries_recipient_key').on(t.certificateId, t.recipient),
    index('certificate_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/**
 * Decision 056: the emails that are not certificates (receipts, reminders, notices), queued once
 * each under a dedupe key and sent by the outbox worker (features/emails). The unique key makes
 * queueing idempotent across instances and restarts: a receipt per payment, a reminder per student
 * and threshold. Rows are kept after sending, as the record of what was sent.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: serial('id').primaryKey(),
    dedupeKey: text('dedupe_key').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    studentId: integer('student_id').references(() => students.id),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: moment('sent_at'),
  },
  (t) => [
    uniqueIndex('email_outbox_dedupe_key').on(t.dedupeKey),
    index('email_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('email_outbox_student_idx').on(t.studentId),
    check('email_outbox_status_check', sql`${t.status} in ('queued', 'sent', 'failed')`),
    check('email_outbox_language_check', sql`${t.language} in ('en', 'es')`),
  ],
);

/**
 * Decision 025: a student's request to correct a detail their certificate shows. One pending per
 * student; approved (the record corrected and the certificate reissued free, in one transaction)
 * or rejected with a note the student sees. Never deleted.
 */
export const certificateCorrections = pgTable(
  'certificate_corrections',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    field: text('field', { enum: ['first_name', 'last_name', 'dob', 'dl_number', 'case_number'] }).notNull(),
    /** The value as it was when asked, and as the student asks it to be. */
    oldValue: text('old_value').notNull(),
    value: text('value').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    createdAt: createdAt(),
    decidedAt: moment('decided_at'),
    decidedByStaffId: integer('decided_by_staff_id').references(() => staff.id),
    note: text('note'),
    /** The reissued certificate, once approved. */
    certificateId: integer('certificate_id').references(() => certificates.id),
  },
  (t) => [
    index('certificate_corrections_status_idx').on(t.status, t.createdAt),
    uniqueIndex('certificate_corrections_one_pending_key')
      .on(t.studentId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Decision 024: a batch of held certificates (routing held_for_state_report) exported
 * for one state's report, then marked filed with the state's confirmation reference, or rejected
 * (its certificates can then go in a new batch). Never deleted.
 */
export const stateFilings = pgTable(
  'state_filings',
  {
    id: serial('id').primaryKey(),
    state: text('state').notNull(),
    status: text('status', { enum: ['exported', 'filed', 'rejected'] }).notNull(),
    exportedByStaffId: integer('exported_by_staff_id')
      .notNull()
      .references(() => staff.id),
    exportedAt: moment('exported_at').notNull(),
    /** When the state accepted it, and its confirmation reference. */
    filedAt: moment('filed_at'),
    confirmationReference: text('confirmation_reference'),
    rejectedAt: moment('rejected_at'),
    rejectionReason: text('rejection_reason'),
    closedByStaffId: integer('closed_by_staff_id').references(() => staff.id),
  },
  (t) => [index('state_filings_state_idx').on(t.state, t.exportedAt)],
);

/** The certificates of a state filing batch; a certificate may be in several (after a rejection). */
export const stateFilingCertificates = pgTable(
  'state_filing_certificates',
  {
    filingId: integer('filing_id')
      .notNull()
      .references(() => stateFilings.id),
    certificateId: integer('certificate_id')
      .notNull()
      .references(() => certificates.id),
    /** The line as exported (decision 024): the batch's file stays what the state received, whatever changes later. */
    row: jsonb('row'),
  },
  (t) => [
    primaryKey({ columns: [t.filingId, t.certificateId] }),
    index('state_filing_certificates_certificate_idx').on(t.certificateId),
  ],
);

/** Secrets the server makes for itself on first start (for example the key that signs download links). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Every version of every rules profile ever loaded from content/rules/ (decision 012). Rows are
 * never changed: a reviewed change to a profile is a new version, and past attempts and
 * certificates keep pointing at the version they were made under.
 */
export const rulesProfiles = pgTable(
  'rules_profiles',
  {
    id: text('id').notNull(),
    version: integer('version').notNull(),
    definition: jsonb('definition').notNull(),
    loadedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.version] })],
);

/**
 * Seat time, append-only: one row per heartbeat the server accepted, with the seconds it
 * counted for it (0 after an idle gap or over the daily cap). Totals are sums of this ledger;
 * nothing the browser says about time is trusted. A trigger refuses updates and deletes.
 */
export const seatTimeLedger = pgTable(
  'seat_time_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id),
    /** When the server received the heartbeat (its own clock). */
    heartbeatAt: moment('heartbeat_at').notNull(),
    creditedSeconds: integer('credited_seconds').notNull(),
    /** The school-time-zone day the seconds count towards (for daily caps). */
    schoolDay: date('school_day', { mode: 'string' }).notNull(),
  },
  (t) => [
    index('seat_time_ledger_student_idx').on(t.studentId, t.heartbeatAt),
    check('seat_time_ledger_credit_check', sql`${t.creditedSeconds} >= 0`),
  ],
);

/**
 * Identity checks asked during the course (decision 012): which fact of the student's record
 * was asked, when, until when, and the outcome. The answer itself is not kept.
 */
export const identityChecks = pgTable(
  'identity_checks',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    source: text('source', { enum: IDENTITY_SOURCES }).notNull(),
    /** For a `personal` question: which of the student's personal questions was asked (decision 050). */
    personalKey: text('personal_key', { enum: PERSONAL_QUESTION_KEYS }),
    /** Why it was asked: during study, or before the final exam. */
    reason: text('reason', { enum: ['random', 'before_final'] }).notNull(),
    /** The student's counted seat time when it was asked: the next check is scheduled from it. */
    countedSecondsAtAsk: integer('counted_seconds_at_ask').notNull().default(0),
    askedAt: moment('asked_at').notNull(),
    expiresAt: moment('expires_at').notNull(),
    answeredAt: moment('answered_at'),
    outcome: text('outcome', { enum: ['passed', 'wrong', 'timed_out'] }),
  },
  (t) => [index('identity_checks_student_idx').on(t.studentId, t.askedAt)],
);

/**
 * A student's answers to their personal validation questions (decision 050): a salted hash of the
 * normalised answer, never the answer. A staff reset archives them (kept for auditors) and the
 * student answers again; at most one live answer per question.
 */
export const personalAnswers = pgTable(
  'personal_answers',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    questionKey: text('question_key', { enum: PERSONAL_QUESTION_KEYS }).notNull(),
    answerHash: text('answer_hash').notNull(),
    createdAt: createdAt(),
    archivedAt: moment('archived_at'),
  },
  (t) => [
    uniqueIndex('personal_answers_live_key')
      .on(t.studentId, t.questionKey)
      .where(sql`${t.archivedAt} is null`),
  ],
);

/** A student's course locked after missed identity checks; lifted by time or by an admin. */
export const courseLocks = pgTable(
  'course_locks',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id),
    reason: text('reason').notNull(),
    lockedAt: moment('locked_at').notNull(),
    /** null: only an admin can lift it. */
    lockedUntil: moment('locked_until'),
    unlockedAt: moment('unlocked_at'),
    unlockedByStaffId: integer('unlocked_by_staff_id').references(() => staff.id),
  },
  (t) => [index('course_locks_student_idx').on(t.studentId)],
);
