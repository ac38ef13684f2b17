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
  /**
   * The last four digits of the card that paid, where the provider tells (Stripe: the latest
   * charge's payment_method_details.card.last4, read when the intent is retrieved); null when it
   * does not, as in a webhook's copy of the intent (decision 058).
   */
  cardLast4: string | null;
}

/** Stripe's refund statuses: a card refund is usually succeeded at once, sometimes pending first. */
export type RefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

/** Money returned on a PaymentIntent (Stripe's Refund object, the fields the school keeps). */
export interface ProviderRefund {
  id: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  /** Stripe's own reason (duplicate, fraudulent, requested_by_customer), when one was given. */
  reason: string | null;
}

export interface ProviderEvent {
  id: string;
  type: string;
  /** The PaymentIntent the event is about, for payment_intent.* events. */
  intent: ProviderIntent | null;
  /** For charge.refunded: the PaymentIntent whose charge was refunded (decision 058). */
  refundedIntentId: string | null;
}

export class WebhookSignatureError extends Error {}

/** The provider refused a refund (more than is left, a charge that did not succeed): its own words. */
export class RefundRefusedError extends Error {}

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
  /**
   * Refunds part or all of a succeeded PaymentIntent (Stripe's POST /v1/refunds with
   * payment_intent and amount). The same idempotency key answers the same refund, so a request
   * sent again refunds once. Throws RefundRefusedError when the provider refuses it.
   */
  createRefund(input: {
    paymentIntentId: string;
    amount: number;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<ProviderRefund>;
  /** Every refund of a PaymentIntent, however it was made (the API or the provider's dashboard). */
  listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>;
  /** Verifies the signature on the raw body; throws WebhookSignatureError when it does not hold. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}
