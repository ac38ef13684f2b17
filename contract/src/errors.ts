import { z } from 'zod';

/** Every API error has this body: a stable code for programs and a message for people. */
export const ErrorBodySchema = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
    })
    .loose(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorCodes = {
  badRequest: 'BAD_REQUEST',
  validation: 'VALIDATION_FAILED',
  unauthenticated: 'UNAUTHENTICATED',
  invalidLogin: 'INVALID_LOGIN',
  paymentRequired: 'PAYMENT_REQUIRED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  duplicateAccount: 'DUPLICATE_ACCOUNT',
  conflict: 'CONFLICT',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL',
} as const;
