import Stripe from 'stripe';
import type {
  IntentStatus,
  PaymentProvider,
  ProviderEvent,
  ProviderIntent,
  ProviderRefund,
  RefundStatus,
} from './provider.ts';
import { RefundRefusedError, WebhookSignatureError } from './provider.ts';

/** Stripe's own tolerance for a webhook's timestamp: older deliveries are refused (replay). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string | undefined;
  /** For tests against a local server that speaks Stripe's API: host, port and protocol. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

function toIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: intent.status as IntentStatus,
    amount: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    // Only when retrieved with latest_charge expanded; a webhook's copy names the charge by id.
    cardLast4:
      intent.latest_charge && typeof intent.latest_charge === 'object'
        ? (intent.latest_charge.payment_method_details?.card?.last4 ?? null)
        : null,
  };
}

function toRefund(refund: Stripe.Refund, paymentIntentId: string): ProviderRefund {
  const intent = refund.payment_intent;
  return {
    id: refund.id,
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? paymentIntentId),
    amount: refund.amount,
    currency: refund.currency,
    status: (refund.status ?? 'pending') as RefundStatus,
    reason: refund.reason ?? null,
  };
}

/** The PaymentIntent a charge belongs to (a charge.refunded event's object). */
function intentOfCharge(charge: Stripe.Charge): string | null {
  const intent = charge.payment_intent;
  return typeof intent === 'string' ? intent : (intent?.id ?? null);
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(options.api ?? {}),
  });
  const retrieveIntent = async (id: string): Promise<ProviderIntent | null> => {
    try {
      // The latest charge expanded in the same call: the card's last four digits for the receipt.
      return toIntent(await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      throw error;
    }
  };
  return {
    name: 'stripe',
    publishableKey: options.publishableKey,

    async createIntent({ amount, currency, metadata, idempotencyKey }) {
      const intent = await stripe.paymentIntents.create(
        { amount, currency, metadata, automatic_payment_methods: { enabled: true } },
        { idempotencyKey },
      );
      return toIntent(intent);
    },

    retrieveIntent,

    async cancelIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.cancel(id));
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        if (error.code === 'resource_missing') return null;
        // Succeeded, processing or already canceled: Stripe's error carries the intent as it is.
        if (error.code === 'payment_intent_unexpected_state') {
          return error.payment_intent ? toIntent(error.payment_intent) : retrieveIntent(id);
        }
        throw error;
      }
    },

    async createRefund({ paymentIntentId, amount, metadata, idempotencyKey }) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntentId, amount, metadata },
          { idempotencyKey },
        );
        return toRefund(refund, paymentIntentId);
      } catch (error) {
        // More than is left, a charge already refunded, an intent that never succeeded: Stripe's words.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new RefundRefusedError(error.message);
        throw error;
      }
    },

    async listRefunds(paymentIntentId) {
      const refunds: ProviderRefund[] = [];
      for await (const refund of stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
        refunds.push(toRefund(refund, paymentIntentId));
      }
      return refunds;
    },

    parseWebhook(rawBody, signature): ProviderEvent {
      if (!options.webhookSecret) throw new WebhookSignatureError('no webhook secret is configured');
      if (!signature) throw new WebhookSignatureError('missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'invalid signature');
      }
      const object = event.data.object as { object?: string };
      const intent = object.object === 'payment_intent' ? toIntent(object as Stripe.PaymentIntent) : null;
      const refundedIntentId =
        event.type === 'charge.refunded' && object.object === 'charge' ? intentOfCharge(object as Stripe.Charge) : null;
      return { id: event.id, type: event.type, intent, refundedIntentId };
    },
  };
}
