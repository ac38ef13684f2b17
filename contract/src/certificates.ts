import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { ANY_STAFF_ROLES } from './staff-access.ts';
import { IdParam } from './primitives.ts';

/**
 * A certificate email: waiting (or retrying), sent, given up after its retries (failed, for staff
 * to resend), or cancelled because a correction replaced the certificate before it went.
 */
export const DeliveryStatusSchema = z.enum(['queued', 'sent', 'failed', 'cancelled']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

export const DeliveryStateSchema = z.object({
  recipient: z.enum(['student', 'court']),
  status: DeliveryStatusSchema,
  sent_at: z.string().nullable(),
});

/** Decision 025: one step of where a certificate is, for the student's tracker. */
export const CertificateTimelineStepSchema = z.object({
  step: z.enum(['passed', 'issued', 'emailed_student', 'sent_to_court', 'filed_with_state', 'court_acknowledged']),
  /** When the step was done (ISO), or null. */
  at: z.string().nullable(),
  state: z.enum(['done', 'pending', 'retrying', 'failed', 'cancelled']),
});
export type CertificateTimelineStep = z.infer<typeof CertificateTimelineStepSchema>;

/** Spec 3 Certificate: generated_at, file_url, url; with its number and delivery state. */
export const CertificateSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  generated_at: z.string(),
  completion_date: z.string(),
  file_url: z.string(),
  url: z.string(),
  deliveries: z.array(DeliveryStateSchema),
  /** Who the rules profile sends it to: held_for_state_report is filed with the state (decision 024). */
  routing: z.enum(['student_and_court', 'student_only', 'held_for_state_report']),
  /** When a state filing holding it was marked filed; null before (or for other routings). */
  state_filed_at: z.string().nullable(),
  /** Where it is, step by step (decision 025). */
  timeline: z.array(CertificateTimelineStepSchema),
  /** The certificate a correction replaced with this one, and, on a replaced one, when (decision 041). */
  replaces: z.string().nullable(),
  superseded_at: z.string().nullable(),
});
export type Certificate = z.infer<typeof CertificateSchema>;

/**
 * Spec 7 POST /pdf/certificate: after a final pass the student's own call (issued once, whatever
 * the number of calls); with ?noEmail=1 a super_admin's new certificate with a chosen
 * completion date written like 'January 1, 2023'.
 */
const issueCertificate = defineEndpoint({
  method: 'POST',
  path: '/api/pdf/certificate',
  query: z.object({ noEmail: z.enum(['0', '1']).optional() }),
  body: z.object({
    studentId: IdParam,
    completionDate: z.string().max(40).optional(),
  }),
  errors: ['NOT_FOUND', 'COURSE_NOT_COMPLETE', 'COMPLETION_DATE_INVALID'],
  response: CertificateSchema,
});

const getLatestCertificate = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/certificate',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.object({ url: z.string(), number: z.string() }),
});

const listCertificates = defineEndpoint({
  method: 'GET',
  path: '/api/students/:studentId/certificate/all',
  params: z.object({ studentId: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.array(CertificateSchema),
});

export const ArchivedCertificateSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  generated_at: z.string(),
  dl_number: z.string(),
  email: z.string(),
  file_url: z.string(),
});

/** Spec 2 /admin/archive: certificates of every enrolment, archived too, by licence number or email. */
const searchCertificateArchive = defineEndpoint({
  method: 'GET',
  path: '/api/students/archivedata/:id',
  staffRoles: ANY_STAFF_ROLES,
  params: z.object({ id: z.string().trim().min(1).max(254) }),
  response: z.array(ArchivedCertificateSchema),
});

/** Public verification (the QR code): genuine or not, with nothing that identifies the driver. */
const verifyCertificate = defineEndpoint({
  method: 'GET',
  path: '/api/public/verify/:number',
  params: z.object({ number: z.string().trim().min(1).max(40) }),
  response: z.object({
    valid: z.boolean(),
    number: z.string(),
    completion_date: z.string().nullable(),
    court_name: z.string().nullable(),
    student_name: z.string().nullable(),
    /** A certificate replaced by a correction (decision 041): the number that replaced it, and when; it is then not valid. */
    superseded_by: z.string().nullable(),
    superseded_at: z.string().nullable(),
  }),
});

/** An admin sends a certificate email again (from the failed state, or to repeat it). */
const resendCertificateDelivery = defineEndpoint({
  method: 'POST',
  path: '/api/admin/deliveries/:id/resend',
  staffRoles: ['super_admin', 'admin'],
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: z.object({ status: z.literal('queued') }),
});

/** The calls of the server's certificates feature. */
export const certificatesApi = {
  issue: issueCertificate,
  latest: getLatestCertificate,
  list: listCertificates,
  searchArchive: searchCertificateArchive,
  verify: verifyCertificate,
  resendDelivery: resendCertificateDelivery,
} as const;
