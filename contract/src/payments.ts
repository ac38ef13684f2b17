import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { Id, IdParam, text } from './primitives.ts';

const StudentIdParams = z.object({ studentId: IdParam });

const getPaymentAmount = defineEndpoint({
  method: 'GET',
  path: '/api/public/payment/:studentId/paymentAmount',
  params: StudentIdParams,
  errors: ['NOT_FOUND'],
  response: z.object({ paymentAmount: z.number().int() }),
});

/** Which card form the payment page shows: Stripe's Payment Element, or the built-in test provider's. */
export const PaymentProviderInfoSchema = z.object({
  provider: z.enum(['stripe', 'test']),
  publishableKey: z.string().nullable(),
});
export type PaymentProviderInfo = z.infer<typeof PaymentProviderInfoSchema>;

const createPaymentIntent = defineEndpoint({
  method: 'POST',
  path: '/api/public/payment/intent',
  body: z.object({ studentId: IdParam }),
  errors: ['NOT_FOUND', 'ALREADY_PAID', 'PAYMENT_NOT_VERIFIED'],
  response: z.object({ clientSecret: z.string(), paymentIntentId: z.string() }).extend(PaymentProviderInfoSchema.shape),
});

/** A hint from the browser after the provider's redirect; the server checks with the provider. */
const markPaymentPaid = defineEndpoint({
  method: 'POST',
  path: '/api/public/payment/mark-paid',
  body: z.object({ paymentIntent: z.string().min(1).max(255) }),
  errors: ['NOT_FOUND', 'PAYMENT_NOT_VERIFIED', 'ALREADY_PAID'],
  response: z.object({ status: z.literal('PAID'), studentId: z.number().int() }),
});

/** Spec 4 and 7: a super_admin marks an unpaid student as paid. */
/** How staff took a payment by hand (decision 026). A waived course counts as zero revenue. */
export const MANUAL_PAYMENT_METHODS = ['phone', 'cheque', 'voucher', 'waived'] as const;
export const ManualPaymentSchema = z.object({
  /** Cents taken; without it, the course price for the student's court (0 when waived). */
  amount_cents: z.number().int().min(0).max(1_000_000).optional(),
  manual_method: z.enum(MANUAL_PAYMENT_METHODS).optional(),
});

const markStudentPaid = defineEndpoint({
  method: 'POST',
  path: '/api/admin/markPaid/:studentId',
  staffRoles: ['super_admin'],
  params: StudentIdParams,
  // The spec's payload carries userId; the server takes the staff member from the session instead.
  // Decision 026: the amount taken (default: the course price for the student's court) and how.
  body: z.object({ userId: Id.optional(), ...ManualPaymentSchema.shape }).optional(),
  errors: ['NOT_FOUND'],
  response: z.object({ studentId: z.number().int(), payment_at: z.string() }),
});

export type ManualPayment = z.infer<typeof ManualPaymentSchema>;

export const PaymentIntentStatusSchema = z.enum([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
]);
export type PaymentIntentStatus = z.infer<typeof PaymentIntentStatusSchema>;

/** The built-in test provider's stand-in for Stripe.js confirmPayment (only without Stripe keys). */
const confirmTestPayment = defineEndpoint({
  method: 'POST',
  path: '/api/test-provider/payment_intents/:id/confirm',
  params: z.object({ id: z.string().min(1).max(100) }),
  body: z.object({
    client_secret: z.string().min(1).max(200),
    card_number: z.string().max(30),
    expiry: z.string().max(10),
    cvc: z.string().max(6),
  }),
  errors: [
    'NOT_FOUND',
    'CARD_DECLINED',
    'CARD_DETAILS_INVALID',
    'PAYMENT_INTENT_CANCELED',
    'PAYMENT_NOT_VERIFIED',
    'ALREADY_PAID',
  ],
  response: z.object({ status: PaymentIntentStatusSchema, redirect_url: z.string() }),
});

/** The built-in test provider's stand-in for Stripe.js retrievePaymentIntent. */
const retrieveTestPayment = defineEndpoint({
  method: 'GET',
  path: '/api/test-provider/payment_intents/:id',
  params: z.object({ id: z.string().min(1).max(100) }),
  query: z.object({ client_secret: z.string().min(1).max(200) }),
  errors: ['NOT_FOUND'],
  response: z.object({
    id: z.string(),
    status: PaymentIntentStatusSchema,
    amount: z.number().int(),
    currency: z.string(),
  }),
});

/** Stripe's refund statuses (decision 058): a card refund is usually succeeded at once. */
export const REFUND_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] as const;
export const RefundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatusSchema>;

/** Decision 058: staff refund a student's card payment, in part or whole, and say why. */
export const RefundRequestSchema = z.object({
  /** Cents to refund; without it, everything the card payment brought that is not refunded yet. */
  amount_cents: z.number().int().min(1).max(1_000_000).optional(),
  reason: text().trim().min(1, 'Say why the payment is refunded.').max(500),
});
export type RefundRequest = z.input<typeof RefundRequestSchema>;

const refundStudentPayment = defineEndpoint({
  method: 'POST',
  path: '/api/admin/students/:id/refunds',
  // Admins (a court's own admin for that court's students), never clerks (decision 058).
  staffRoles: ['super_admin', 'admin', 'court_admin'],
  params: z.object({ id: IdParam }),
  body: RefundRequestSchema,
  errors: ['NOT_FOUND', 'REFUND_EXCEEDS_PAYMENT'],
  status: 201,
  response: z.object({ id: z.number().int(), amount_cents: z.number().int(), status: RefundStatusSchema }),
});

/** A refund as the student's admin record lists it beside the payments. */
export const AdminRefundSchema = z.object({
  id: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  status: RefundStatusSchema,
  reason: z.string().nullable(),
  /** The staff member who refunded it here; null for one made in the provider's dashboard. */
  refunded_by: z.string().nullable(),
  created_at: z.string(),
});
export type AdminRefund = z.infer<typeof AdminRefundSchema>;

/** The calls of the server's payments feature. */
export const paymentsApi = {
  amount: getPaymentAmount,
  createIntent: createPaymentIntent,
  markPaid: markPaymentPaid,
  markPaidManually: markStudentPaid,
  confirmTest: confirmTestPayment,
  retrieveTest: retrieveTestPayment,
  refund: refundStudentPayment,
} as const;
