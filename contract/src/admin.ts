import { z } from 'zod';
import { CertificateSchema } from './certificates.ts';
import { defineEndpoint } from './endpoint.ts';
import { Id, IdParam, nameText, PageParam } from './primitives.ts';
import { AdminIdentitySchema } from './identity.ts';

/** Spec 3 Student, as the admin student detail shows it, with payments and certificates. */
export const AdminStudentSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  dl_number: z.string(),
  dob: z.string(),
  dob_formatted: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  court: z.number().int(),
  court_name: z.string(),
  created_at_formatted: z.string(),
  payment_at: z.string().nullable(),
  payment_at_formatted: z.string().nullable(),
  completed_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  /** The staff member who enrolled the student by hand (spec 7 backdoor), or null. */
  enrolled_by: z.string().nullable(),
  /** The rules profile version the enrolment is pinned to (decision 012); the server always fills it. */
  rules_profile: z.object({ id: z.string(), version: z.number().int(), name: z.string() }).optional(),
  /** The court's due date the student gave at registration (YYYY-MM-DD), or null; always filled. */
  court_due_date: z.string().nullable().optional(),
  payments: z.array(
    z.object({
      method: z.enum(['card', 'manual']),
      amount_cents: z.number().int().nullable(),
      recorded_by: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  certificates: z.array(
    CertificateSchema.extend({
      deliveries: z.array(
        z.object({
          id: z.number().int(),
          recipient: z.enum(['student', 'court']),
          email: z.string(),
          status: z.enum(['queued', 'sent', 'failed']),
          attempts: z.number().int(),
          last_error: z.string().nullable(),
          sent_at: z.string().nullable(),
        }),
      ),
    }),
  ),
  /** Submitted quiz and final exam attempts (chapter 6 is the final), oldest first. */
  attempts: z.array(
    z.object({
      chapter_id: z.number().int(),
      submitted_at: z.string().nullable(),
      score: z.number().int().nullable(),
      passed: z.boolean().nullable(),
      /** How many questions the attempt drew (10, or 20 for the final). */
      total: z.number().int(),
    }),
  ),
  /** Identity checks asked and the course lock (decision 012); the server always fills it. */
  identity: AdminIdentitySchema.optional(),
  /**
   * The study time the server counted (decision 012), per chapter and in all, against the
   * profile's minimums; null when the profile asks for none and nothing was counted.
   */
  seat_time: z
    .object({
      chapters: z.array(
        z.object({
          chapter_id: z.number().int(),
          counted_seconds: z.number().int(),
          required_seconds: z.number().int(),
        }),
      ),
      counted_seconds: z.number().int(),
      /** The minimum before the final exam (0 when the profile has none). */
      required_seconds: z.number().int(),
      first_activity_at: z.string().nullable(),
      last_activity_at: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type AdminStudent = z.infer<typeof AdminStudentSchema>;

export const getAdminStudent = defineEndpoint({
  method: 'GET',
  path: '/api/admin/students/:id',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: AdminStudentSchema,
});

/** An admin sends a certificate email again (from the failed state, or to repeat it). */
export const resendCertificateDelivery = defineEndpoint({
  method: 'POST',
  path: '/api/admin/deliveries/:id/resend',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.object({ status: z.literal('queued') }),
});

// ---------------------------------------------------------------------------------------------
// Dashboard (spec 2 /admin, 3 Stats and Report rows, 9 windows)

/** The dashboard's figures, each a stable key the page translates, with how to show its value. */
export const StatNameSchema = z.enum([
  'registrations',
  'payments',
  'revenue',
  'completions',
  'final_pass_rate',
  'certificates_issued',
  'students_in_progress',
  'unpaid_registrations',
  'failed_deliveries',
  'average_days_to_complete',
]);
export type StatName = z.infer<typeof StatNameSchema>;

export const StatSchema = z.object({
  name: StatNameSchema,
  /** null when there is nothing to measure yet (a pass rate with no final attempts). */
  value: z.number().nullable(),
  unit: z.enum(['count', 'cents', 'percent', 'days']),
});
export type Stat = z.infer<typeof StatSchema>;

export const getAdminStats = defineEndpoint({
  method: 'GET',
  path: '/api/admin/stats',
  response: z.array(StatSchema),
});

export const ReportRowSchema = z.object({
  court_id: z.number().int(),
  court_name: z.string(),
  seven_day: z.number().int(),
  thirty_day: z.number().int(),
  sixty_day: z.number().int(),
  ninety_day: z.number().int(),
  total: z.number().int(),
});
export type ReportRow = z.infer<typeof ReportRowSchema>;

/** Completions per court over 7, 30, 60 and 90 days and in total. */
export const getAdminReport = defineEndpoint({
  method: 'GET',
  path: '/api/admin/report',
  response: z.array(ReportRowSchema),
});

// ---------------------------------------------------------------------------------------------
// Student list (spec 2 /admin/students)

export const ADMIN_STUDENTS_PAGE_SIZE = 20;

export const AdminStudentRowSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  dl_number: z.string(),
  court: z.number().int(),
  court_name: z.string(),
  payment_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at_formatted: z.string(),
});
export type AdminStudentRow = z.infer<typeof AdminStudentRowSchema>;

export const listAdminStudents = defineEndpoint({
  method: 'GET',
  path: '/api/admin/students',
  query: z.object({
    searchTerm: z.string().trim().max(100).optional(),
    page: PageParam.default(1),
    courtId: IdParam.optional(),
  }),
  response: z.object({
    rows: z.array(AdminStudentRowSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Questions (spec 2 /admin/modify-questions, 7 edit calls, 8 messages)

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

export const getAdminQuestion = defineEndpoint({
  method: 'GET',
  path: '/api/admin/questions/:id',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: AdminQuestionSchema,
});

export const editQuestion = defineEndpoint({
  method: 'POST',
  path: '/api/admin/edit/question/:id',
  params: z.object({ id: IdParam }),
  body: z.object({
    content: z.string().trim().min(1).max(2000),
    /** The Spanish text; left as it is when absent. */
    content_es: z.string().trim().max(2000).optional(),
  }),
  errors: ['NOT_FOUND'],
  response: AdminQuestionSchema,
});

export const editAnswer = defineEndpoint({
  method: 'POST',
  path: '/api/admin/edit/answer/:id',
  params: z.object({ id: IdParam }),
  body: z.object({
    content: z.string().trim().min(1).max(1000),
    content_es: z.string().trim().max(1000).optional(),
    /** true makes this the question's one correct answer (the others become incorrect). */
    correct: z.boolean().optional(),
  }),
  errors: ['NOT_FOUND', 'CORRECT_ANSWER_REQUIRED'],
  response: AdminQuestionSchema,
});

// ---------------------------------------------------------------------------------------------
// Change password (spec 2 /admin/change-password, 5, 7, 8)

/** Staff passwords: long enough to resist guessing, short enough to type. */
export const STAFF_PASSWORD_MIN_LENGTH = 10;
export const StaffPasswordSchema = z.string().min(STAFF_PASSWORD_MIN_LENGTH).max(200);

export const changeStaffPassword = defineEndpoint({
  method: 'POST',
  path: '/api/admin/change-password',
  body: z.object({
    userId: Id,
    currentPw: z.string().min(1).max(200),
    newPw: StaffPasswordSchema,
  }),
  errors: ['NOT_FOUND', 'WRONG_PASSWORD'],
  response: z.object({ status: z.literal('SUCCESS') }),
});

// ---------------------------------------------------------------------------------------------
// Staff accounts (/admin/users, super_admin only) and the one-time set-password link

export const StaffAccountSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['super_admin', 'admin', 'clerk']),
  court_id: z.number().int().nullable(),
  court_name: z.string().nullable(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  password_set: z.boolean(),
});
export type StaffAccount = z.infer<typeof StaffAccountSchema>;

const StaffAccountInputSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(200)),
  name: nameText(200),
  role: z.enum(['super_admin', 'admin', 'clerk']),
  /** For an admin or a clerk (never a super_admin): limits the account to one court. */
  court_id: Id.nullable(),
});

export const SetPasswordLinkSchema = z.object({
  /** Shown once to the super_admin and emailed to the member; only its hash is kept. */
  setPasswordUrl: z.string(),
  expires_at: z.string(),
  /** false when the email could not be sent: the super_admin passes the link on themself. */
  emailed: z.boolean(),
});

/** How long a set-password link works. */
export const SET_PASSWORD_LINK_HOURS = 72;

export const listStaffAccounts = defineEndpoint({
  method: 'GET',
  path: '/api/admin/users',
  response: z.array(StaffAccountSchema),
});

export const createStaffAccount = defineEndpoint({
  method: 'POST',
  path: '/api/admin/users',
  body: StaffAccountInputSchema.extend({
    username: z
      .string()
      .trim()
      .min(3)
      .max(60)
      .regex(/^[A-Za-z0-9._-]+$/),
  }),
  errors: ['STAFF_EXISTS', 'NO_SUCH_COURT', 'SUPER_ADMIN_ALL_COURTS'],
  response: z.object({ user: StaffAccountSchema, link: SetPasswordLinkSchema }),
  status: 201,
});

export const updateStaffAccount = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/users/:id',
  params: z.object({ id: IdParam }),
  body: StaffAccountInputSchema.extend({ disabled: z.boolean() }),
  errors: ['NOT_FOUND', 'STAFF_EXISTS', 'NO_SUCH_COURT', 'SUPER_ADMIN_ALL_COURTS', 'OWN_ACCOUNT', 'LAST_SUPER_ADMIN'],
  response: StaffAccountSchema,
});

export const issueSetPasswordLink = defineEndpoint({
  method: 'POST',
  path: '/api/admin/users/:id/set-password-link',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND', 'ACCOUNT_DISABLED'],
  response: SetPasswordLinkSchema,
});

/** Public: a staff member chooses a password with the one-time token from their link. */
export const setStaffPassword = defineEndpoint({
  method: 'POST',
  path: '/api/public/staff/set-password',
  body: z.object({ token: z.string().min(10).max(200), password: StaffPasswordSchema }),
  errors: ['INVALID_LINK'],
  response: z.object({ status: z.literal('SUCCESS') }),
});

// ---------------------------------------------------------------------------------------------
// Audit log (super_admin only)

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staff_id: z.number().int(),
  staff_name: z.string(),
  staff_username: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const getAuditLog = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit',
  query: z.object({ page: PageParam.default(1) }),
  response: z.object({
    rows: z.array(AuditEntrySchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});
