import type { FastifyInstance } from 'fastify';
import { paymentsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { WebhookSignatureError } from '../../platform/payments/provider.ts';
import { declareAccess, PUBLIC, serve, staffRoles } from '../../plugins/endpoint.ts';
import { badRequest } from '../../plugins/errors.ts';
import { assertMayPayFor } from './payment-access.ts';
import { fulfilPaymentFromBrowser, handlePaymentWebhook } from './fulfil-payment.service.ts';
import { markStudentPaidManually } from './manual-payments.service.ts';
import { paymentContextOf } from './payment-context.ts';
import { refundStudentPayment } from './refunds.service.ts';
import { getPaymentAmount, preparePaymentIntent } from './payment-intents.service.ts';

export const WEBHOOK_PATH = '/api/public/payment/webhook';

export async function registerPaymentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config, payments } = deps;

  // Public (spec 7: /public/...): the payment page runs with no session. They reveal nothing
  // personal: a price, a client secret for the card form, and a yes/no on a payment.
  serve(app, paymentsApi.amount, PUBLIC, async ({ params }) => ({
    paymentAmount: await getPaymentAmount(db, {
      studentId: params.studentId,
      defaultPriceCents: config.coursePriceCents,
    }),
  }));

  // The client secret only to the registering browser or the signed-in student (decision 048).
  serve(app, paymentsApi.createIntent, PUBLIC, async ({ body, request }) => {
    await assertMayPayFor(db, clock, request, body.studentId);
    const intent = await preparePaymentIntent(db, paymentContextOf(deps, request.log), {
      studentId: body.studentId,
      defaultPriceCents: config.coursePriceCents,
    });
    return {
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.id,
      provider: payments.name,
      publishableKey: payments.publishableKey,
    };
  });

  serve(app, paymentsApi.markPaid, PUBLIC, async ({ body, request }) => {
    const { studentId } = await fulfilPaymentFromBrowser(db, paymentContextOf(deps, request.log), {
      paymentIntentId: body.paymentIntent,
    });
    return { status: 'PAID' as const, studentId };
  });

  // Spec 6: only a super_admin marks a student as paid.
  serve(
    app,
    paymentsApi.markPaidManually,
    staffRoles(...paymentsApi.markPaidManually.staffRoles),
    async ({ params, body, auth, request }) => {
      const { studentId, paymentAt } = await markStudentPaidManually(db, paymentContextOf(deps, request.log), {
        studentId: params.studentId,
        staffId: auth.staffId,
        payment: { amount_cents: body?.amount_cents, manual_method: body?.manual_method },
        defaultPriceCents: config.coursePriceCents,
      });
      return { studentId, payment_at: paymentAt.toISOString() };
    },
  );

  // Decision 058: admins refund a card payment (a court's own admin for that court's students).
  serve(
    app,
    paymentsApi.refund,
    staffRoles(...paymentsApi.refund.staffRoles),
    async ({ params, body, auth, request }) => {
      const refund = await refundStudentPayment(db, paymentContextOf(deps, request.log), {
        auth,
        staffId: auth.staffId,
        studentId: params.id,
        amountCents: body.amount_cents,
        reason: body.reason,
      });
      return { id: refund.id, amount_cents: refund.amountCents, status: refund.status };
    },
  );

  // The provider's webhook. Its signature covers the exact bytes sent, so this route (alone)
  // keeps the body raw.
  declareAccess(app, 'POST', WEBHOOK_PATH, PUBLIC);
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(WEBHOOK_PATH, { schema: { hide: true } }, async (request) => {
      const signature = request.headers['stripe-signature'];
      try {
        return await handlePaymentWebhook(db, paymentContextOf(deps, request.log), {
          rawBody: request.body as Buffer,
          signature: typeof signature === 'string' ? signature : undefined,
        });
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw badRequest('The webhook signature could not be verified.');
        throw error;
      }
    });
  });
}
