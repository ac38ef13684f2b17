import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

export const getPaymentAmount = defineEndpoint({
  method: 'GET',
  path: '/api/public/payment/:studentId/paymentAmount',
  params: z.object({ studentId: z.coerce.number().int().positive() }),
  response: z.object({ paymentAmount: z.number().int() }),
});
