import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import {
  buildStripeEvent,
  createLocalStripeProvider,
  signStripePayload,
  startStripeApiServer,
  type StripeApiServer,
} from '../../testing/stripe-api-server.ts';
import type { PaymentProvider } from './provider.ts';
import { RefundRefusedError, WebhookSignatureError } from './provider.ts';
import { WEBHOOK_TOLERANCE_SECONDS } from './stripe-provider.ts';

let server: StripeApiServer;
let stripe: PaymentProvider;
let keySequence = 0;
const newKey = () => `stripe-provider-test-${String(++keySequence)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  server = await startStripeApiServer();
  stripe = createLocalStripeProvider(server);
});
afterAll(async () => {
  await server.close();
});

describe('the Stripe adapter, creating and retrieving PaymentIntents', () => {
  it('creates a PaymentIntent with the amount, currency, metadata and idempotency key it was given', async () => {
    const key = newKey();
    const intent = await stripe.createIntent({
      amount: 2995,
      currency: 'usd',
      metadata: { studentId: '41' },
      idempotencyKey: key,
    });

    expect(intent).toEqual({
      id: server.getIntent(intent.id).id,
      clientSecret: server.getIntent(intent.id).client_secret,
      status: 'requires_payment_method',
      amount: 2995,
      currency: 'usd',
      metadata: { studentId: '41' },
      cardLast4: null,
    });
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_.+`));
    const request = server.requests.at(-1);
    expect(request).toEqual({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: key,
      form: {
        amount: '2995',
        currency: 'usd',
        'metadata[studentId]': '41',
        'automatic_payment_methods[enabled]': 'true',
      },
    });
  });

  it('answers a repeated idempotency key with the same PaymentIntent and makes no second one', async () => {
    const key = newKey();
    const input = { amount: 3995, currency: 'usd', metadata: { studentId: '42' }, idempotencyKey: key };
    const before = server.intentCount();

    const first = await stripe.createIntent(input);
    const second = await stripe.createIntent(input);

    expect(second).toEqual(first);
    expect(server.intentCount()).toBe(before + 1);
  });

  it('makes a new PaymentIntent for a new idempotency key', async () => {
    const input = { amount: 2995, currency: 'usd', metadata: { studentId: '43' } };
    const first = await stripe.createIntent({ ...input, idempotencyKey: newKey() });
    const second = await stripe.createIntent({ ...input, idempotencyKey: newKey() });
    expect(second.id).not.toBe(first.id);
  });

  it('retrieves a PaymentIntent as Stripe holds it now', async () => {
    const created = await stripe.createIntent({
      amount: 2995,
      currency: 'usd',
      metadata: { studentId: '44' },
      idempotencyKey: newKey(),
    });
    server.setIntent(created.id, { status: 'succeeded' });

    // Its latest charge expanded in the same call: the card's last four for the receipt (decision 058).
    expect(await stripe.retrieveIntent(created.id)).toEqual({ ...created, status: 'succeeded', cardLast4: '4242' });
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${created.id}` });
  });

  it('answers null for a PaymentIntent Stripe does not have', async () => {
    expect(await stripe.retrieveIntent('pi_doesnotexist')).toBeNull();
  });

  it('throws, rather than answering "no such payment", when Stripe refuses for another reason', async () => {
    const wrongKey = createLocalStripeProvider(server, { secretKey: 'sk_test_wrong' });
    await expect(wrongKey.retrieveIntent('pi_doesnotexist')).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
  });
});

describe('the Stripe adapter, canceling PaymentIntents', () => {
  const created = () =>
    stripe.createIntent({ amount: 2995, currency: 'usd', metadata: { studentId: '45' }, idempotencyKey: newKey() });

  it('cancels a PaymentIntent still waiting for a card with POST /v1/payment_intents/:id/cancel', async () => {
    const intent = await created();
    expect(await stripe.cancelIntent(intent.id)).toEqual({ ...intent, status: 'canceled' });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${intent.id}/cancel` });
  });

  it('answers a PaymentIntent that already succeeded as Stripe holds it, from Stripe’s unexpected-state error', async () => {
    const intent = await created();
    server.setIntent(intent.id, { status: 'succeeded' });
    expect(await stripe.cancelIntent(intent.id)).toEqual({ ...intent, status: 'succeeded' });
    expect(server.getIntent(intent.id).status).toBe('succeeded');
  });

  it('answers null for a PaymentIntent Stripe does not have', async () => {
    expect(await stripe.cancelIntent('pi_doesnotexist')).toBeNull();
  });
});

describe('the Stripe adapter, refunding (decision 058)', () => {
  const paidIntent = async (amount = 2995) => {
    const created = await stripe.createIntent({
      amount,
      currency: 'usd',
      metadata: { studentId: '50' },
      idempotencyKey: newKey(),
    });
    server.setIntent(created.id, { status: 'succeeded' });
    return created;
  };

  it('refunds part of a PaymentIntent through POST /v1/refunds with the idempotency key it was given', async () => {
    const intent = await paidIntent();
    const key = newKey();

    const refund = await stripe.createRefund({
      paymentIntentId: intent.id,
      amount: 1000,
      metadata: { paymentId: '9' },
      idempotencyKey: key,
    });

    expect(refund).toEqual({
      id: expect.stringMatching(/^re_/) as string,
      paymentIntentId: intent.id,
      amount: 1000,
      currency: 'usd',
      status: 'succeeded',
      reason: null,
    });
    expect(server.requests.at(-1)).toEqual({
      method: 'POST',
      path: '/v1/refunds',
      idempotencyKey: key,
      form: { payment_intent: intent.id, amount: '1000', 'metadata[paymentId]': '9' },
    });
  });

  it('answers the same idempotency key with the same refund, and Stripe refunds once', async () => {
    const intent = await paidIntent();
    const input = { paymentIntentId: intent.id, amount: 500, metadata: {}, idempotencyKey: newKey() };
    const first = await stripe.createRefund(input);
    const second = await stripe.createRefund(input);
    expect(second.id).toBe(first.id);
    expect(server.refunds().filter((refund) => refund.payment_intent === intent.id)).toHaveLength(1);
  });

  it('throws RefundRefusedError for more than is left to refund, and Stripe refunds nothing', async () => {
    const intent = await paidIntent();
    await expect(
      stripe.createRefund({ paymentIntentId: intent.id, amount: 2996, metadata: {}, idempotencyKey: newKey() }),
    ).rejects.toBeInstanceOf(RefundRefusedError);
    expect(server.refunds().filter((refund) => refund.payment_intent === intent.id)).toEqual([]);
  });

  it('lists every refund of a PaymentIntent, the dashboard’s included', async () => {
    const intent = await paidIntent();
    await stripe.createRefund({ paymentIntentId: intent.id, amount: 700, metadata: {}, idempotencyKey: newKey() });
    server.refundInDashboard(intent.id, 300);
    const refunds = await stripe.listRefunds(intent.id);
    expect(refunds.map((refund) => refund.amount).sort()).toEqual([300, 700]);
  });
});

describe('the Stripe adapter, reading a webhook delivery', () => {
  const succeededIntent = () => ({
    id: 'pi_webhook_1',
    object: 'payment_intent',
    amount: 2995,
    currency: 'usd',
    status: 'succeeded',
    client_secret: 'pi_webhook_1_secret_abc',
    metadata: { studentId: '7' },
  });

  it('accepts an event signed with the webhook secret and reads its PaymentIntent', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    const event = stripe.parseWebhook(Buffer.from(payload), signStripePayload(payload));

    expect(event).toEqual({
      id: (JSON.parse(payload) as { id: string }).id,
      type: 'payment_intent.succeeded',
      intent: {
        id: 'pi_webhook_1',
        clientSecret: 'pi_webhook_1_secret_abc',
        status: 'succeeded',
        amount: 2995,
        currency: 'usd',
        metadata: { studentId: '7' },
        // A webhook's copy names its charge by id only.
        cardLast4: null,
      },
      refundedIntentId: null,
    });
  });

  it('reads charge.refunded as the PaymentIntent whose charge was refunded (decision 058)', () => {
    const payload = buildStripeEvent('charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      payment_intent: 'pi_refunded_1',
    } as {
      id: string;
      object: string;
    });
    const event = stripe.parseWebhook(Buffer.from(payload), signStripePayload(payload));
    expect(event).toMatchObject({ type: 'charge.refunded', intent: null, refundedIntentId: 'pi_refunded_1' });
  });

  it('reads an event about something other than a PaymentIntent with no intent', () => {
    const payload = buildStripeEvent('customer.created', { id: 'cus_1', object: 'customer' });
    const event = stripe.parseWebhook(Buffer.from(payload), signStripePayload(payload));
    expect(event).toMatchObject({ type: 'customer.created', intent: null });
  });

  it('accepts a delivery signed a little under five minutes ago', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    const signature = signStripePayload(payload, { timestamp: nowSeconds() - WEBHOOK_TOLERANCE_SECONDS + 30 });
    expect(stripe.parseWebhook(Buffer.from(payload), signature).type).toBe('payment_intent.succeeded');
  });

  it('refuses a delivery without a signature', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    expect(() => stripe.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
  });

  it('refuses a delivery signed with another secret', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    const signature = signStripePayload(payload, { secret: 'whsec_someone_else' });
    expect(() => stripe.parseWebhook(Buffer.from(payload), signature)).toThrow(WebhookSignatureError);
  });

  it('refuses a delivery whose body was changed after signing', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    const signature = signStripePayload(payload);
    const altered = payload.replace('"amount":2995', '"amount":1');
    expect(altered).not.toBe(payload);
    expect(() => stripe.parseWebhook(Buffer.from(altered), signature)).toThrow(WebhookSignatureError);
  });

  it('refuses a delivery signed more than five minutes ago (a replay)', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    const signature = signStripePayload(payload, { timestamp: nowSeconds() - WEBHOOK_TOLERANCE_SECONDS - 1 });
    expect(() => stripe.parseWebhook(Buffer.from(payload), signature)).toThrow(WebhookSignatureError);
  });

  it('refuses a signature header that is not one', () => {
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    expect(() => stripe.parseWebhook(Buffer.from(payload), 'not-a-signature')).toThrow(WebhookSignatureError);
  });

  it('refuses every delivery when no webhook secret is configured', () => {
    const noSecret = createLocalStripeProvider(server, { webhookSecret: undefined });
    const payload = buildStripeEvent('payment_intent.succeeded', succeededIntent());
    expect(() => noSecret.parseWebhook(Buffer.from(payload), signStripePayload(payload))).toThrow(
      WebhookSignatureError,
    );
  });
});
