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

    async retrieveIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
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
