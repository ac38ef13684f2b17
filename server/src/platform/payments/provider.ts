/**
 * The card payment provider as the school sees it: Stripe in production, or the built-in test
 * provider that plays Stripe's part offline with the same shapes (ids, client secrets, statuses).
 */
export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface ProviderIntent {
  id: string;
  clientSecret: string;
  status: IntentStatus;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface ProviderEvent {
  id: string;
  type: string;
  /** The PaymentIntent the event is about, for payment_intent.* events. */
  intent: ProviderIntent | null;
}

export class WebhookSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  /** What the browser needs to load the provider's form (null for the test provider). */
  readonly publishableKey: string | null;
  createIntent(input: {
    amount: number;
    currency: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<ProviderIntent>;
  /** null when the provider has no such PaymentIntent. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /**
   * Cancels a PaymentIntent still waiting for its payment (Stripe's POST
   * /v1/payment_intents/:id/cancel). Answers the intent as the provider then holds it: canceled,
   * or, when it could not be canceled any more (succeeded, processing, already canceled), in that
   * state. null when the provider has no such PaymentIntent.
   */
  cancelIntent(id: string): Promise<ProviderIntent | null>;
  /** Verifies the signature on the raw body; throws WebhookSignatureError when it does not hold. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}
