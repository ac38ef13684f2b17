import Stripe from 'stripe';
import type { IntentStatus, PaymentProvider, ProviderEvent, ProviderIntent } from './provider.ts';
import { WebhookSignatureError } from './provider.ts';

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
  };
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(options.api ?? {}),
  });
  const retrieveIntent = async (id: string): Promise<ProviderIntent | null> => {
    try {
      return toIntent(await stripe.paymentIntents.retrieve(id));
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
      return { id: event.id, type: event.type, intent };
    },
  };
}
