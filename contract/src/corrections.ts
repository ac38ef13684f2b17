import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';
import { RegistrationSchema } from './registration.ts';

/**
 * Decision 025: a student asks for a detail of their certificate to be corrected; staff approve
 * (the record corrected and the certificate reissued free, with a new number) or reject with a
 * note the student reads.
 */

/** The details a certificate shows that a student may ask to correct, named as registration names them. */
export const CORRECTION_FIELDS = ['first_name', 'last_name', 'dob', 'dl_number', 'case_number'] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];

/** A corrected value follows the rule the registration form holds that field to. */
export const CorrectionRequestSchema = z
  .object({
    field: z.enum(CORRECTION_FIELDS),
    value: z.string().trim().min(1).max(100),
    reason: z.string().trim().min(3).max(500),
  })
  .transform((request, context) => {
    const checked = RegistrationSchema.shape[request.field].safeParse(request.value);
    if (!checked.success || checked.data === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: checked.success ? 'Enter the corrected value.' : (checked.error.issues[0]?.message ?? 'Not valid.'),
      });
      return z.NEVER;
    }
    return { ...request, value: checked.data };
  });
export type CorrectionRequest = z.input<typeof CorrectionRequestSchema>;

export const CorrectionSchema = z.object({
  id: z.number().int(),
  student_id: z.number().int(),
  student_name: z.string(),
  court_name: z.string(),
  field: z.enum(CORRECTION_FIELDS),
  old_value: z.string(),
  value: z.string(),
  reason: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** The staff note of a rejection, shown to the student. */
  note: z.string().nullable(),
  /** The corrected certificate's number, once approved. */
  certificate_number: z.string().nullable(),
});
export type Correction = z.infer<typeof CorrectionSchema>;

const requestCorrection = defineEndpoint({
  method: 'POST',
  path: '/api/students/:id/corrections',
  params: z.object({ id: IdParam }),
  body: CorrectionRequestSchema,
  errors: ['NOT_FOUND', 'COURSE_NOT_COMPLETE', 'CORRECTION_PENDING'],
  response: CorrectionSchema,
  status: 201,
});

const listOwnCorrections = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/corrections',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.array(CorrectionSchema),
});

/** Admins decide corrections (a court's own admin within the court), never clerks (decision 025). */
const CORRECTION_DECIDERS = ['super_admin', 'admin', 'court_admin'] as const;

const listCorrections = defineEndpoint({
  method: 'GET',
  path: '/api/admin/corrections',
  staffRoles: CORRECTION_DECIDERS,
  query: z.object({
    status: z.enum(['pending', 'approved', 'rejected']).optional(),
    studentId: IdParam.optional(),
  }),
  response: z.array(CorrectionSchema),
});

const approveCorrection = defineEndpoint({
  method: 'POST',
  path: '/api/admin/corrections/:id/approve',
  staffRoles: CORRECTION_DECIDERS,
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND', 'CORRECTION_DECIDED', 'ENROLMENT_ARCHIVED'],
  response: CorrectionSchema,
});

const rejectCorrection = defineEndpoint({
  method: 'POST',
  path: '/api/admin/corrections/:id/reject',
  staffRoles: CORRECTION_DECIDERS,
  params: z.object({ id: IdParam }),
  body: z.object({ note: z.string().trim().min(3).max(500) }),
  errors: ['NOT_FOUND', 'CORRECTION_DECIDED'],
  response: CorrectionSchema,
});

export const correctionsApi = {
  request: requestCorrection,
  own: listOwnCorrections,
  list: listCorrections,
  approve: approveCorrection,
  reject: rejectCorrection,
} as const;
