import { z } from './zod.ts';
import { RegistrationSchema } from './registration.ts';
import { CertificateSchema, DeliveryStatusSchema } from './certificates.ts';
import { defineEndpoint } from './endpoint.ts';
import { ANY_STAFF_ROLES } from './staff-access.ts';
import { AdminIdentitySchema } from './identity.ts';
import { StudentLanguageSchema } from './auth.ts';
import { IdParam, PageParam } from './primitives.ts';
import { RulesExceptionSchema } from './rules.ts';
import { AdminRefundSchema } from './payments.ts';

/** The admin area's students (spec 2 /admin/students and /admin/students/:id): served by features/admin. */

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
  /** The registration's moment (ISO), for pages that write dates in the reader's language. */
  created_at: z.string(),
  payment_at: z.string().nullable(),
  payment_at_formatted: z.string().nullable(),
  completed_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  /** The language the student's emails are written in (decision 056); the server always fills it. */
  language: StudentLanguageSchema.optional(),
  /** The staff member who enrolled the student by hand (spec 7 backdoor), or null. */
  enrolled_by: z.string().nullable(),
  /** The rules profile version the enrolment is pinned to (decision 012); the server always fills it. */
  rules_profile: z.object({ id: z.string(), version: z.number().int(), name: z.string() }).optional(),
  /** The court's due date the student gave at registration (YYYY-MM-DD), or null; always filled. */
  court_due_date: z.string().nullable().optional(),
  /** The case or citation number the student gave at registration, or null (decision 024); always filled. */
  case_number: z.string().nullable().optional(),
  /** Exceptions staff made to the student's rules, oldest first; always filled. */
  exceptions: z.array(RulesExceptionSchema).optional(),
  payments: z.array(
    z.object({
      method: z.enum(['card', 'manual']),
      /** How a manual payment was taken (decision 026), or null. */
      manual_method: z.enum(['phone', 'cheque', 'voucher', 'waived']).nullable(),
      amount_cents: z.number().int().nullable(),
      recorded_by: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  /** Money returned on the card payments (decision 058), oldest first; the server always fills it. */
  refunds: z.array(AdminRefundSchema).optional(),
  certificates: z.array(
    CertificateSchema.extend({
      deliveries: z.array(
        z.object({
          id: z.number().int(),
          recipient: z.enum(['student', 'court']),
          email: z.string(),
          status: DeliveryStatusSchema,
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

const getAdminStudent = defineEndpoint({
  method: 'GET',
  path: '/api/admin/students/:id',
  staffRoles: ANY_STAFF_ROLES,
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: AdminStudentSchema,
});

/** Student list (spec 2 /admin/students). */

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
  /** The registration's moment (ISO), for pages that write dates in the reader's language. */
  created_at: z.string(),
});
export type AdminStudentRow = z.infer<typeof AdminStudentRowSchema>;

/** The columns the students list sorts by; by default the newest registration first (spec 2). */
export const ADMIN_STUDENT_SORTS = ['name', 'court', 'registered', 'completed'] as const;
export type AdminStudentSort = (typeof ADMIN_STUDENT_SORTS)[number];
export const ADMIN_STUDENT_DEFAULT_ORDER = { sort: 'registered', order: 'desc' } as const;

const listAdminStudents = defineEndpoint({
  method: 'GET',
  path: '/api/admin/students',
  staffRoles: ANY_STAFF_ROLES,
  query: z.object({
    searchTerm: z.string().trim().max(100).optional(),
    page: PageParam.default(1),
    courtId: IdParam.optional(),
    sort: z.enum(ADMIN_STUDENT_SORTS).default(ADMIN_STUDENT_DEFAULT_ORDER.sort),
    order: z.enum(['asc', 'desc']).default(ADMIN_STUDENT_DEFAULT_ORDER.order),
  }),
  response: z.object({
    rows: z.array(AdminStudentRowSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});

/** The calls of the server's adminStudents feature. */
/**
 * Decision 026: staff correct a student's email and mailing address (spec 5 checks no email format,
 * so a typo reaches no one), and with `resend` send the current certificate to the new address in
 * the same step.
 */
export const UpdateStudentContactSchema = RegistrationSchema.pick({
  email: true,
  address: true,
  city: true,
  state: true,
  zip: true,
}).extend({
  resend: z.boolean(),
  /** The language of the student's emails (decision 056); unchanged when absent. */
  language: StudentLanguageSchema.optional(),
});
export type UpdateStudentContact = z.input<typeof UpdateStudentContactSchema>;

const updateStudentContact = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/students/:id/contact',
  // Admins (a court's own admin for that court's students), never clerks (decision 011).
  staffRoles: ['super_admin', 'admin', 'court_admin'],
  params: z.object({ id: IdParam }),
  body: UpdateStudentContactSchema,
  errors: ['NOT_FOUND', 'DUPLICATE_ACCOUNT', 'ENROLMENT_ARCHIVED'],
  response: AdminStudentSchema,
});

export const adminStudentsApi = {
  list: listAdminStudents,
  get: getAdminStudent,
  updateContact: updateStudentContact,
} as const;
