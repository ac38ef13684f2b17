import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

export const getPaymentAmount = defineEndpoint({
  method: 'GET',
  path: '/api/public/payment/:studentId/paymentAmount',
  params: z.object({ studentId: z.coerce.number().int().positive() }),
  response: z.object({ paymentAmount: z.number().int() }),
});

/** Spec 4 and 7: a super_admin marks an unpaid student as paid. */
export const markStudentPaid = defineEndpoint({
  method: 'POST',
  path: '/api/admin/markPaid/:studentId',
  params: z.object({ studentId: z.coerce.number().int().positive() }),
  // The spec's payload carries userId; the server takes the staff member from the session instead.
  body: z.object({ userId: z.number().int().optional() }).optional(),
  response: z.object({ studentId: z.number().int(), payment_at: z.string() }),
});
