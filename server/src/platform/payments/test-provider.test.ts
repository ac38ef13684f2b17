import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { TestClock } from '../../testing/build-test-app.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { WebhookSignatureError } from './provider.ts';
import {
  createTestPaymentProvider,
  type TestCard,
  type TestPaymentProvider,
  validateTestCard,
} from './test-provider.ts';

const NOW = new Date('2026-11-22T15:00:00Z');
const card = (overrides: Partial<TestCard> = {}): TestCard => ({
  number: '4242 4242 4242 4242',
  expiry: '12/34',
  cvc: '123',
  ...overrides,
});

describe('validateTestCard (the checks the card form makes before anything is sent)', () => {
  it('accepts a complete, valid card, with or without spaces and dashes in the number', () => {
    expect(validateTestCard(card(), NOW)).toBeNull();
    expect(validateTestCard(card({ number: '4242424242424242' }), NOW)).toBeNull();
    expect(validateTestCard(card({ number: '4242-4242-4242-4242' }), NOW)).toBeNull();
  });

  it('refuses a number that fails the Luhn check', () => {
    expect(validateTestCard(card({ number: '4242 4242 4242 4241' }), NOW)).toEqual({
      type: 'validation_error',
      code: 'invalid_number',
      message: 'Your card number is invalid.',
    });
  });

  it.each(['4242 4242 4242', '', '4242 4242 4242 424x', '4'.repeat(20)])(
    'refuses the incomplete number "%s"',
    (number) => {
      expect(validateTestCard(card({ number }), NOW)).toEqual({
        type: 'validation_error',
        code: 'incomplete_number',
        message: 'Your card number is incomplete.',
      });
    },
  );

  it('accepts a card that expires at the end of the current month', () => {
    expect(validateTestCard(card({ expiry: '11/26' }), NOW)).toBeNull();
  });

  it('refuses a card that expired last year', () => {
    expect(validateTestCard(card({ expiry: '12/25' }), NOW)).toEqual({
      type: 'validation_error',
      code: 'invalid_expiry_year_past',
      message: "Your card's expiration year is in the past.",
    });
  });

  it('refuses a card that expired last month', () => {
    expect(validateTestCard(card({ expiry: '10/26' }), NOW)).toMatchObject({
      type: 'validation_error',
      code: expect.stringMatching(/^invalid_expiry_(month|year)_past$/) as string,
    });
  });

  it('refuses a card from the first moment after its expiry month ends', () => {
    expect(validateTestCard(card({ expiry: '11/26' }), new Date('2026-12-01T00:00:00Z'))?.code).toMatch(
      /^invalid_expiry_(month|year)_past$/,
    );
  });

  it.each(['00/30', '13/30'])('refuses the expiry month of %s', (expiry) => {
    expect(validateTestCard(card({ expiry }), NOW)).toEqual({
      type: 'validation_error',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
    });
  });

  it.each(['1/30', '12/3', '', '12-30'])('refuses the incomplete expiry "%s"', (expiry) => {
    expect(validateTestCard(card({ expiry }), NOW)).toEqual({
      type: 'validation_error',
      code: 'incomplete_expiry',
      message: "Your card's expiration date is incomplete.",
    });
  });

  it.each(['12', '', '12a', '12345'])('refuses the security code "%s"', (cvc) => {
    expect(validateTestCard(card({ cvc }), NOW)).toEqual({
      type: 'validation_error',
      code: 'incomplete_cvc',
      message: "Your card's security code is incomplete.",
    });
  });

  it('accepts a four-digit security code', () => {
    expect(validateTestCard(card({ cvc: '1234' }), NOW)).toBeNull();
  });
});

describe('the built-in test provider', () => {
  let database: Database;
  let clock: TestClock;
  let provider: TestPaymentProvider;
  let keySequence = 0;

  const newIntent = (amount = 2995) =>
    provider.createIntent({
      amount,
      currency: 'usd',
      metadata: { studentId: '12' },
      idempotencyKey: `test-provider-test-${String(++keySequence)}`,
    });

  beforeAll(async () => {
    database = await openTestDatabase();
    clock = new TestClock(NOW);
    provider = createTestPaymentProvider(database.db, clock);
  });
  afterAll(async () => {
    await database.close();
  });

  it('creates a PaymentIntent in Stripe’s shape, waiting for a card', async () => {
    const intent = await newIntent();
    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_test_[0-9a-f]{24}$/) as string,
      clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_[0-9a-f]{24}$`)) as string,
      status: 'requires_payment_method',
      amount: 2995,
      currency: 'usd',
      metadata: { studentId: '12' },
      cardLast4: null,
    });
    expect(provider.name).toBe('test');
    expect(provider.publishableKey).toBeNull();
  });

  it('answers a repeated idempotency key with the same PaymentIntent', async () => {
    const input = { amount: 2995, currency: 'usd', metadata: { studentId: '13' }, idempotencyKey: 'same-key' };
    const first = await provider.createIntent(input);
    const second = await provider.createIntent(input);
    expect(second).toEqual(first);
  });

  it('makes a new PaymentIntent for a new idempotency key', async () => {
    const first = await newIntent();
    const second = await newIntent();
    expect(second.id).not.toBe(first.id);
  });

  it('retrieves a PaymentIntent, and answers null for one it does not have', async () => {
    const intent = await newIntent(3995);
    expect(await provider.retrieveIntent(intent.id)).toEqual(intent);
    expect(await provider.retrieveIntent('pi_test_doesnotexist')).toBeNull();
  });

  it('charges Stripe’s success card: the PaymentIntent succeeds', async () => {
    const intent = await newIntent();
    const result = await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    expect(result).toEqual({ intent: { ...intent, status: 'succeeded', cardLast4: '4242' }, error: null });
    expect((await provider.retrieveIntent(intent.id))?.status).toBe('succeeded');
  });

  it.each([
    ['4000000000000002', 'card_declined', 'Your card was declined.'],
    ['4000000000009995', 'card_declined', 'Your card has insufficient funds.'],
    [
      '4000000000000119',
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ],
    [
      '4000056655665556',
      'card_declined',
      'Your card was declined. Your request was in test mode, but used a non test card.',
    ],
  ])('refuses the card %s with %s: "%s", and leaves the PaymentIntent payable', async (number, code, message) => {
    const intent = await newIntent();
    const result = await provider.confirmIntent({
      id: intent.id,
      clientSecret: intent.clientSecret,
      card: card({ number }),
    });
    expect(result).toEqual({
      intent: { ...intent, status: 'requires_payment_method' },
      error: { type: 'card_error', code, message },
    });
  });

  it('leaves the PaymentIntent processing for the card that needs the bank’s authentication', async () => {
    const intent = await newIntent();
    const result = await provider.confirmIntent({
      id: intent.id,
      clientSecret: intent.clientSecret,
      card: card({ number: '4000 0000 0000 3220' }),
    });
    expect(result).toEqual({ intent: { ...intent, status: 'processing' }, error: null });
  });

  it('lets a refused card be followed by one that succeeds', async () => {
    const intent = await newIntent();
    const confirm = (number: string) =>
      provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card({ number }) });
    expect((await confirm('4000000000000002'))?.error?.code).toBe('card_declined');
    expect(await confirm('4242424242424242')).toEqual({
      intent: { ...intent, status: 'succeeded', cardLast4: '4242' },
      error: null,
    });
  });

  it('refuses to charge a PaymentIntent that already succeeded', async () => {
    const intent = await newIntent();
    await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    const again = await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    expect(again).toEqual({
      intent: { ...intent, status: 'succeeded', cardLast4: '4242' },
      error: {
        type: 'validation_error',
        code: 'payment_intent_unexpected_state',
        message: 'This payment has already been submitted.',
      },
    });
  });

  it('charges once when one PaymentIntent is confirmed twice at once, and calls the second already submitted', async () => {
    const intent = await newIntent();
    const confirm = () => provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    const results = await Promise.all([confirm(), confirm()]);
    const codes = results.map((result) => result?.error?.code ?? null).sort();
    expect(codes).toEqual(['payment_intent_unexpected_state', null].sort());
    expect(results.map((result) => result?.intent.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('answers a form error and charges nothing for an invalid card', async () => {
    const intent = await newIntent();
    const result = await provider.confirmIntent({
      id: intent.id,
      clientSecret: intent.clientSecret,
      card: card({ number: '4242 4242 4242 4241' }),
    });
    expect(result).toEqual({ intent, error: validateTestCard(card({ number: '4242424242424241' }), NOW) });
    expect(result?.error?.code).toBe('invalid_number');
    expect((await provider.retrieveIntent(intent.id))?.status).toBe('requires_payment_method');
  });

  it('answers null, and charges nothing, for a wrong client secret', async () => {
    const intent = await newIntent();
    const result = await provider.confirmIntent({
      id: intent.id,
      clientSecret: `${intent.id}_secret_wrong`,
      card: card(),
    });
    expect(result).toBeNull();
    expect((await provider.retrieveIntent(intent.id))?.status).toBe('requires_payment_method');
  });

  it('answers null for a PaymentIntent it does not have', async () => {
    expect(
      await provider.confirmIntent({ id: 'pi_test_nope', clientSecret: 'pi_test_nope_secret_x', card: card() }),
    ).toBeNull();
  });

  it('judges the expiry by its own clock', async () => {
    const intent = await newIntent();
    clock.set(new Date('2035-01-01T00:00:00Z'));
    try {
      const result = await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
      expect(result?.error?.code).toBe('invalid_expiry_year_past');
    } finally {
      clock.set(NOW);
    }
  });

  it('sends no webhooks, so it refuses any delivery', () => {
    expect(() => provider.parseWebhook(Buffer.from('{}'), 't=1,v1=abc')).toThrow(WebhookSignatureError);
  });

  it('cancels a PaymentIntent still waiting for a card, and then refuses to confirm it as Stripe does', async () => {
    const intent = await newIntent();
    expect(await provider.cancelIntent(intent.id)).toEqual({ ...intent, status: 'canceled' });
    const confirmed = await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    expect(confirmed).toEqual({
      intent: { ...intent, status: 'canceled' },
      error: {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: expect.stringContaining('it has a status of canceled') as string,
      },
    });
  });

  it('answers a PaymentIntent that already succeeded as it is, not canceled, and null for one it does not have', async () => {
    const intent = await newIntent();
    await provider.confirmIntent({ id: intent.id, clientSecret: intent.clientSecret, card: card() });
    expect(await provider.cancelIntent(intent.id)).toEqual({ ...intent, status: 'succeeded', cardLast4: '4242' });
    expect(await provider.cancelIntent('pi_test_none')).toBeNull();
  });

  it('refunds with an id of its idempotency key: the same request is the same refund (decision 058)', async () => {
    const intent = await newIntent();
    const input = { paymentIntentId: intent.id, amount: 1000, metadata: {}, idempotencyKey: 'refund:1:0:1000' };
    const first = await provider.createRefund(input);
    expect(first).toEqual({
      id: expect.stringMatching(/^re_test_[0-9a-f]{24}$/) as string,
      paymentIntentId: intent.id,
      amount: 1000,
      currency: 'usd',
      status: 'succeeded',
      reason: null,
    });
    expect((await provider.createRefund(input)).id).toBe(first.id);
    expect((await provider.createRefund({ ...input, idempotencyKey: 'refund:1:1:1000' })).id).not.toBe(first.id);
  });
});
