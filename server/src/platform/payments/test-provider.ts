import { createHash, randomBytes } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { testProviderIntents } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { IntentStatus, PaymentProvider, ProviderIntent } from './provider.ts';
import { RefundRefusedError, WebhookSignatureError } from './provider.ts';

/**
 * Stripe's documented test cards decide the outcome (decision 009). Any other number that passes
 * the Luhn check is refused as Stripe's test mode refuses real cards.
 */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  processingError: '4000000000000119',
  /** Stripe: "requires authentication"; with no bank to answer here, the payment stays processing. */
  processing: '4000000000003220',
} as const;

export interface CardError {
  /** invalid_request_error: the PaymentIntent itself cannot be confirmed (Stripe: canceled). */
  type: 'card_error' | 'validation_error' | 'invalid_request_error';
  code: string;
  message: string;
}

export interface TestCard {
  number: string;
  /** MM/YY */
  expiry: string;
  cvc: string;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The checks Stripe's Payment Element makes before anything is sent: validation errors. */
export function validateTestCard(card: TestCard, now: Date): CardError | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(number)) {
    return { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' };
  }
  if (!luhnValid(number)) {
    return { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' };
  }
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!expiry) {
    return {
      type: 'validation_error',
      code: 'incomplete_expiry',
      message: "Your card's expiration date is incomplete.",
    };
  }
  const month = Number(expiry[1]);
  const year = 2000 + Number(expiry[2]);
  if (month < 1 || month > 12) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
    };
  }
  const endOfMonth = Date.UTC(year, month, 1);
  if (endOfMonth <= now.getTime()) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_year_past',
      message: "Your card's expiration year is in the past.",
    };
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    return { type: 'validation_error', code: 'incomplete_cvc', message: "Your card's security code is incomplete." };
  }
  return null;
}

function decide(number: string): { status: IntentStatus; error: CardError | null } {
  switch (number) {
    case TEST_CARDS.succeeds:
      return { status: 'succeeded', error: null };
    case TEST_CARDS.processing:
      return { status: 'processing', error: null };
    case TEST_CARDS.declined:
      return {
        status: 'requires_payment_method',
        error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      };
    case TEST_CARDS.insufficientFunds:
      return {
        status: 'requires_payment_method',
        error: { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' },
      };
    case TEST_CARDS.processingError:
      return {
        status: 'requires_payment_method',
        error: {
          type: 'card_error',
          code: 'processing_error',
          message: 'An error occurred while processing your card. Try again in a little bit.',
        },
      };
    default:
      return {
        status: 'requires_payment_method',
        error: {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined. Your request was in test mode, but used a non test card.',
        },
      };
  }
}

/** An intent in one of these has been submitted: a confirmation is refused. */
const FINAL_STATUSES = new Set<IntentStatus>(['succeeded', 'processing', 'canceled']);

/** Stripe's refusal to confirm a canceled PaymentIntent (HTTP 400). */
const CANCELED_ERROR: CardError = {
  type: 'invalid_request_error',
  code: 'payment_intent_unexpected_state',
  message:
    'You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.',
};

function toIntent(row: typeof testProviderIntents.$inferSelect): ProviderIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status as IntentStatus,
    amount: row.amount,
    currency: row.currency,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    // Only Stripe's 4242 test card succeeds here (TEST_CARDS.succeeds), so a paid intent was paid by it.
    cardLast4: row.status === 'succeeded' ? TEST_CARDS.succeeds.slice(-4) : null,
  };
}

export interface TestPaymentProvider extends PaymentProvider {
  readonly name: 'test';
  /** What Stripe's confirmPayment does on its servers: charge the card, move the intent on. */
  confirmIntent(input: {
    id: string;
    clientSecret: string;
    card: TestCard;
  }): Promise<{ intent: ProviderIntent; error: CardError | null } | null>;
}

/** The built-in test provider: Stripe's shapes and statuses, its state in our database. */
export function createTestPaymentProvider(db: Db, clock: Clock): TestPaymentProvider {
  // Prepared once each (decision 030): the journey's thousand students each pay through them. By id it
  // is the first statement of the return (decision 034), and of a confirmation with a card refused
  // before any charge.
  const findBy = async (column: 'id' | 'idempotencyKey', value: string) => {
    const name = `find_test_intent_by_${column}`;
    const [row] = await prepareOnce(db, name, (database) =>
      database
        .select()
        .from(testProviderIntents)
        .where(eq(testProviderIntents[column], sql.placeholder('value')))
        .prepare(name),
    ).execute({ value });
    return row ?? null;
  };
  const findById = (id: string) => findBy('id', id);
  return {
    name: 'test',
    publishableKey: null,

    async createIntent({ amount, currency, metadata, idempotencyKey }) {
      const id = `pi_test_${randomBytes(12).toString('hex')}`;
      // Same idempotency key, same PaymentIntent: as Stripe answers a retried request. A new key
      // is answered by the insert itself, a retried one by the row already there.
      const [inserted] = await prepareOnce(db, 'insert_test_intent', (database) =>
        database
          .insert(testProviderIntents)
          .values({
            id: sql.placeholder('id'),
            clientSecret: sql.placeholder('clientSecret'),
            amount: sql.placeholder('amount'),
            currency: sql.placeholder('currency'),
            status: 'requires_payment_method',
            metadata: sql.placeholder('metadata'),
            idempotencyKey: sql.placeholder('idempotencyKey'),
            createdAt: sql.placeholder('now'),
            updatedAt: sql.placeholder('now'),
          })
          .onConflictDoNothing({ target: testProviderIntents.idempotencyKey })
          .returning()
          .prepare('insert_test_intent'),
      ).execute({
        id,
        clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        amount,
        currency,
        metadata: JSON.stringify(metadata),
        idempotencyKey,
        now: clock.now(),
      });
      const row = inserted ?? (await findBy('idempotencyKey', idempotencyKey));
      if (!row) throw new Error('test provider lost a PaymentIntent');
      return toIntent(row);
    },

    async retrieveIntent(id) {
      const row = await findById(id);
      return row ? toIntent(row) : null;
    },

    async cancelIntent(id) {
      // As Stripe: only an intent still waiting for its payment is canceled; one that succeeded,
      // is processing or was canceled is answered as it is (Stripe's payment_intent_unexpected_state).
      const [canceled] = await db
        .update(testProviderIntents)
        .set({ status: 'canceled', updatedAt: clock.now() })
        .where(and(eq(testProviderIntents.id, id), notInArray(testProviderIntents.status, [...FINAL_STATUSES])))
        .returning();
      if (canceled) return toIntent(canceled);
      const row = await findById(id);
      return row ? toIntent(row) : null;
    },

    async confirmIntent({ id, clientSecret, card }) {
      // A valid card on an intent still waiting for one: charged in one statement (decision 032).
      const invalid = validateTestCard(card, clock.now());
      if (!invalid) {
        const outcome = decide(card.number.replace(/[\s-]/g, ''));
        const [charged] = await prepareOnce(db, 'confirm_test_intent', (database) =>
          database
            .update(testProviderIntents)
            .set({
              status: sql`${sql.placeholder('status')}::text`,
              lastError: sql`${sql.placeholder('lastError')}::text`,
              updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
            })
            .where(
              and(
                eq(testProviderIntents.id, sql.placeholder('id')),
                eq(testProviderIntents.clientSecret, sql.placeholder('clientSecret')),
                notInArray(testProviderIntents.status, [...FINAL_STATUSES]),
              ),
            )
            .returning()
            .prepare('confirm_test_intent'),
        ).execute({
          id,
          clientSecret,
          status: outcome.status,
          lastError: outcome.error?.code ?? null,
          now: clock.now().toISOString(),
        });
        if (charged) return { intent: toIntent(charged), error: outcome.error };
      }
      // Otherwise, why not: no such intent (or not this secret), already submitted, or the card.
      const row = await findById(id);
      if (!row || row.clientSecret !== clientSecret) return null;
      if (row.status === 'canceled') return { intent: toIntent(row), error: CANCELED_ERROR };
      if (invalid && !FINAL_STATUSES.has(row.status as IntentStatus)) return { intent: toIntent(row), error: invalid };
      return {
        intent: toIntent(row),
        error: {
          type: 'validation_error',
          code: 'payment_intent_unexpected_state',
          message: 'This payment has already been submitted.',
        },
      };
    },

    async createRefund({ paymentIntentId, amount, idempotencyKey }) {
      // Decision 058: the refund's id comes from its idempotency key, so the same request refunds
      // once, as Stripe answers a retried one. It reads nothing: the school asks while it holds its
      // payment rows in a transaction (on PGlite, one connection), and its own records already
      // say what is left to refund of a payment that succeeded.
      if (!Number.isInteger(amount) || amount < 1) throw new RefundRefusedError('Invalid positive integer');
      const id = `re_test_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      return { id, paymentIntentId, amount, currency: 'usd', status: 'succeeded', reason: null };
    },

    async listRefunds() {
      // The test provider has no dashboard: every refund it made, the school recorded as it made it.
      return [];
    },

    parseWebhook() {
      // The test provider fulfils on confirmation itself; it sends no webhooks.
      throw new WebhookSignatureError('the built-in test provider sends no webhooks');
    },
  };
}

export function isTestPaymentProvider(provider: PaymentProvider): provider is TestPaymentProvider {
  return provider.name === 'test' && 'confirmIntent' in provider;
}
