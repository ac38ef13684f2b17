import { z } from 'zod';
import { CertificateSchema } from './certificates.ts';
import { defineEndpoint } from './endpoint.ts';

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
});
export type AdminStudent = z.infer<typeof AdminStudentSchema>;

export const getAdminStudent = defineEndpoint({
  method: 'GET',
  path: '/api/admin/students/:id',
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: AdminStudentSchema,
});

/** An admin sends a certificate email again (from the failed state, or to repeat it). */
export const resendCertificateDelivery = defineEndpoint({
  method: 'POST',
  path: '/api/admin/deliveries/:id/resend',
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: z.object({ status: z.literal('queued') }),
});
