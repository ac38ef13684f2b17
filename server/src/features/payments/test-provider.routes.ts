import type { FastifyInstance } from 'fastify';
import { paymentsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import type { TestPaymentProvider } from '../../platform/payments/test-provider.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { fulfilConfirmedPayment } from './fulfil-payment.service.ts';
import { paymentContextOf } from './payment-context.ts';

/**
 * The built-in test provider's answers to the browser, in place of Stripe.js talking to Stripe.
 * Registered only when no Stripe keys are set. A successful confirmation fulfils at once, as
 * Stripe's payment_intent.succeeded webhook would, through the same fulfilPayment.
 */
export function registerTestProviderRoutes(app: FastifyInstance, deps: AppDeps, provider: TestPaymentProvider): void {
  const { db } = deps;

  serve(app, paymentsApi.confirmTest, PUBLIC, async ({ params, body, request }) => {
    const result = await provider.confirmIntent({
      id: params.id,
      clientSecret: body.client_secret,
      card: { number: body.card_number, expiry: body.expiry, cvc: body.cvc },
    });
    if (!result) throw notFound('No such payment.');
    // Stripe.js shows a card_error's or validation_error's own message (spec 8); so does the page.
    if (result.error) {
      const { type, code, message } = result.error;
      const details = { type, provider_code: code };
      // A canceled PaymentIntent (decision 042) is refused as Stripe refuses it: invalid_request_error.
      if (type === 'invalid_request_error')
        throw new AppError('PAYMENT_INTENT_CANCELED', message, { ...details, type });
      throw type === 'card_error'
        ? new AppError('CARD_DECLINED', message, { ...details, type })
        : new AppError('CARD_DETAILS_INVALID', message, { ...details, type });
    }
    if (result.intent.status === 'succeeded') {
      await fulfilConfirmedPayment(db, { ...paymentContextOf(deps, request.log), provider }, result.intent);
    }
    // As Stripe's confirmPayment does, the browser goes back to the return page with these three.
    const query = new URLSearchParams({
      payment_intent: result.intent.id,
      payment_intent_client_secret: result.intent.clientSecret,
      redirect_status: result.intent.status === 'succeeded' ? 'succeeded' : 'pending',
    });
    return { status: result.intent.status, redirect_url: `/pay?${query.toString()}` };
  });

  serve(app, paymentsApi.retrieveTest, PUBLIC, async ({ params, query }) => {
    const intent = await provider.retrieveIntent(params.id);
    if (!intent || intent.clientSecret !== query.client_secret) throw notFound('No such payment.');
    return { id: intent.id, status: intent.status, amount: intent.amount, currency: intent.currency };
  });
}
