import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { IntentStatus, PaymentProvider } from '../platform/payments/provider.ts';
import { createStripeProvider } from '../platform/payments/stripe-provider.ts';

/**
 * A local stand-in for the part of Stripe's REST API the Stripe adapter uses, so the real
 * stripe-node client runs end to end in tests without the internet: POST /v1/payment_intents
 * (form-encoded, honouring Idempotency-Key), GET /v1/payment_intents/:id (its latest charge
 * expanded when asked), POST /v1/payment_intents/:id/cancel, and refunds: POST /v1/refunds
 * (honouring Idempotency-Key) and GET /v1/refunds?payment_intent= (decision 058). Everything else
 * answers Stripe's 404. The test plays the customer (and Stripe's other clients) with setIntent.
 */

export const STRIPE_TEST_KEYS = {
  secretKey: 'sk_test_x',
  publishableKey: 'pk_test_x',
  webhookSecret: 'whsec_test',
} as const;

/** A PaymentIntent as Stripe's API answers it (the fields the adapter reads, and a few more). */
export interface StripePaymentIntentJson {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: IntentStatus;
  client_secret: string;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  /** The charge that paid it (set when it succeeds), by id; expanded on request. */
  latest_charge: string | null;
  created: number;
  livemode: false;
}

/** A Refund as Stripe's API answers it. */
export interface StripeRefundJson {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** The card every charge here is made with: Stripe's 4242 test card. */
export const STAND_IN_CARD_LAST4 = '4242';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The form body as sent, key by key (`metadata[studentId]`, `automatic_payment_methods[enabled]`). */
  form: Record<string, string>;
}

export type IntentPatch = Partial<Pick<StripePaymentIntentJson, 'status' | 'amount' | 'currency' | 'metadata'>>;

export interface StripeApiServer {
  /** Host, port and protocol for stripe-node's config (StripeProviderOptions.api). */
  readonly api: { host: string; port: number; protocol: 'http' };
  /** Every request received, in order. */
  readonly requests: RecordedStripeRequest[];
  /** How many PaymentIntents exist on this "account". */
  intentCount(): number;
  getIntent(id: string): StripePaymentIntentJson;
  /** Changes a PaymentIntent as the customer's payment (or anyone else on the account) would. */
  setIntent(id: string, patch: IntentPatch): StripePaymentIntentJson;
  /** A PaymentIntent made on the same Stripe account by someone other than this app. */
  addIntent(fields: IntentPatch & { amount: number }): StripePaymentIntentJson;
  /** Every refund on this "account", oldest first. */
  refunds(): StripeRefundJson[];
  /** A refund made in Stripe's dashboard (not through the API the app calls). */
  refundInDashboard(paymentIntentId: string, amount?: number): StripeRefundJson;
  /** The charge.refunded event Stripe sends after a refund of this PaymentIntent's charge. */
  chargeRefundedEvent(paymentIntentId: string): string;
  /**
   * Holds the next request for this method and path before it is answered (a slow network), so
   * a test can run something else meanwhile: `reached` resolves when it arrives, `release` answers it.
   */
  pauseNext(method: string, path: string): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

/** What Stripe lets POST /v1/payment_intents/:id/cancel cancel. */
const CANCELABLE = new Set<IntentStatus>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
]);

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function stripeError(res: http.ServerResponse, status: number, error: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
  res.end(JSON.stringify({ error }));
}

/** Stripe's answer for a PaymentIntent id it does not know. */
function noSuchIntent(res: http.ServerResponse, id: string): void {
  stripeError(res, 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param: 'intent',
    message: `No such payment_intent: '${id}'`,
  });
}

function sendJson(res: http.ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
  res.end(body);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeApiServer(options: { secretKey?: string } = {}): Promise<StripeApiServer> {
  const secretKey = options.secretKey ?? STRIPE_TEST_KEYS.secretKey;
  const intents = new Map<string, StripePaymentIntentJson>();
  /** Stripe replays the first answer to a key (a snapshot), and refuses the key with other parameters. */
  const idempotent = new Map<string, { body: string; response: string }>();
  const requests: RecordedStripeRequest[] = [];
  const pauses: { method: string; path: string; arrived(): void; released: Promise<void> }[] = [];

  const makeIntent = (fields: IntentPatch & { amount: number }): StripePaymentIntentJson => {
    const id = newId('pi');
    const intent: StripePaymentIntentJson = {
      id,
      object: 'payment_intent',
      amount: fields.amount,
      currency: fields.currency ?? 'usd',
      status: fields.status ?? 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      metadata: { ...(fields.metadata ?? {}) },
      automatic_payment_methods: { enabled: true },
      latest_charge: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(id, intent);
    return intent;
  };

  const refunds: StripeRefundJson[] = [];
  const refundedOf = (intentId: string) =>
    refunds
      .filter(
        (refund) => refund.payment_intent === intentId && refund.status !== 'failed' && refund.status !== 'canceled',
      )
      .reduce((sum, refund) => sum + refund.amount, 0);
  const makeRefund = (intent: StripePaymentIntentJson, amount: number, metadata: Record<string, string>) => {
    const refund: StripeRefundJson = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      status: 'succeeded',
      reason: null,
      metadata,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.push(refund);
    return refund;
  };
  /** A succeeded intent is charged once: the charge it names (as Stripe's latest_charge). */
  const chargeOf = (intent: StripePaymentIntentJson) => ({
    id: intent.latest_charge ?? '',
    object: 'charge' as const,
    amount: intent.amount,
    amount_refunded: refundedOf(intent.id),
    currency: intent.currency,
    payment_intent: intent.id,
    refunded: refundedOf(intent.id) >= intent.amount,
    status: 'succeeded' as const,
    payment_method_details: { type: 'card', card: { brand: 'visa', last4: STAND_IN_CARD_LAST4 } },
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    const idempotencyKey = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      form,
    });

    const pause = pauses.findIndex((p) => p.method === req.method && p.path === url.pathname);
    if (pause >= 0) {
      const [held] = pauses.splice(pause, 1);
      held?.arrived();
      await held?.released;
    }

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      stripeError(res, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
      return;
    }

    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const key = typeof idempotencyKey === 'string' ? idempotencyKey : undefined;
      const previous = key ? idempotent.get(key) : undefined;
      if (previous) {
        if (previous.body !== body) {
          stripeError(res, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
          });
          return;
        }
        sendJson(res, previous.response, { 'idempotent-replayed': 'true' });
        return;
      }
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1 || !form.currency) {
        stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'parameter_missing',
          message: 'Missing required param: amount.',
        });
        return;
      }
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(form)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const intent = makeIntent({ amount, currency: form.currency, metadata });
      intent.automatic_payment_methods = { enabled: form['automatic_payment_methods[enabled]'] === 'true' };
      const response = JSON.stringify(intent);
      if (key) idempotent.set(key, { body, response });
      sendJson(res, response);
      return;
    }

    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const key = typeof idempotencyKey === 'string' ? `refunds:${idempotencyKey}` : undefined;
      const previous = key ? idempotent.get(key) : undefined;
      if (previous) {
        if (previous.body !== body) {
          stripeError(res, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          });
          return;
        }
        sendJson(res, previous.response, { 'idempotent-replayed': 'true' });
        return;
      }
      const intentId = form.payment_intent ?? '';
      const intent = intents.get(intentId);
      if (!intent) {
        noSuchIntent(res, intentId);
        return;
      }
      if (intent.status !== 'succeeded' || !intent.latest_charge) {
        stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'charge_not_refundable',
          message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        });
        return;
      }
      const left = intent.amount - refundedOf(intent.id);
      const amount = form.amount === undefined ? left : Number(form.amount);
      if (left <= 0) {
        stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'charge_already_refunded',
          message: `Charge ${intent.latest_charge} has already been refunded.`,
        });
        return;
      }
      if (!Number.isInteger(amount) || amount < 1 || amount > left) {
        stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          param: 'amount',
          message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        });
        return;
      }
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(form)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const response = JSON.stringify(makeRefund(intent, amount, metadata));
      if (key) idempotent.set(key, { body, response });
      sendJson(res, response);
      return;
    }

    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const intentId = url.searchParams.get('payment_intent');
      const data = refunds.filter((refund) => intentId === null || refund.payment_intent === intentId);
      sendJson(res, JSON.stringify({ object: 'list', data, has_more: false, url: '/v1/refunds' }));
      return;
    }

    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel?.[1]) {
      const id = decodeURIComponent(cancel[1]);
      const intent = intents.get(id);
      if (!intent) {
        noSuchIntent(res, id);
        return;
      }
      if (!CANCELABLE.has(intent.status)) {
        // Stripe's answer for a PaymentIntent past cancelling: the error carries the intent.
        res.writeHead(400, { 'content-type': 'application/json', 'request-id': newId('req') });
        res.end(
          JSON.stringify({
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action.`,
              payment_intent: intent,
            },
          }),
        );
        return;
      }
      intent.status = 'canceled';
      sendJson(res, JSON.stringify(intent));
      return;
    }

    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && retrieve?.[1]) {
      const id = decodeURIComponent(retrieve[1]);
      const intent = intents.get(id);
      if (!intent) {
        noSuchIntent(res, id);
        return;
      }
      // expand[]=latest_charge (stripe-node sends expand[0]=...): the charge as an object.
      const expand = [...url.searchParams.entries()].some(
        ([name, value]) => name.startsWith('expand[') && value === 'latest_charge',
      );
      sendJson(
        res,
        JSON.stringify(expand && intent.latest_charge ? { ...intent, latest_charge: chargeOf(intent) } : intent),
      );
      return;
    }

    stripeError(res, 404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method ?? ''}: ${url.pathname}).`,
    });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      stripeError(res, 500, { type: 'api_error', message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const getIntent = (id: string) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`the Stripe test server has no PaymentIntent ${id}`);
    return intent;
  };

  return {
    api: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    intentCount: () => intents.size,
    getIntent: (id) => structuredClone(getIntent(id)),
    setIntent(id, patch) {
      const intent = getIntent(id);
      Object.assign(intent, patch, patch.metadata ? { metadata: { ...patch.metadata } } : {});
      // A payment that succeeds is charged (Stripe's latest_charge), with the card that paid.
      if (intent.status === 'succeeded' && !intent.latest_charge) intent.latest_charge = newId('ch');
      return structuredClone(intent);
    },
    addIntent: (fields) => {
      const intent = makeIntent(fields);
      if (intent.status === 'succeeded') intent.latest_charge = newId('ch');
      return structuredClone(intent);
    },
    refunds: () => structuredClone(refunds),
    refundInDashboard(paymentIntentId, amount) {
      const intent = getIntent(paymentIntentId);
      return structuredClone(makeRefund(intent, amount ?? intent.amount - refundedOf(intent.id), {}));
    },
    chargeRefundedEvent(paymentIntentId) {
      return buildStripeEvent('charge.refunded', chargeOf(getIntent(paymentIntentId)));
    },
    pauseNext(method, path) {
      let arrived = () => undefined as void;
      let release = () => undefined as void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      pauses.push({ method, path, arrived, released });
      return { reached, release };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The real Stripe adapter, talking to the local server. */
export function createLocalStripeProvider(
  server: StripeApiServer,
  overrides: { secretKey?: string; webhookSecret?: string | undefined } = {},
): PaymentProvider {
  return createStripeProvider({
    secretKey: overrides.secretKey ?? STRIPE_TEST_KEYS.secretKey,
    publishableKey: STRIPE_TEST_KEYS.publishableKey,
    webhookSecret: 'webhookSecret' in overrides ? overrides.webhookSecret : STRIPE_TEST_KEYS.webhookSecret,
    api: server.api,
  });
}

/** A Stripe event about a PaymentIntent (or any object), as Stripe posts it to the webhook. */
export function buildStripeEvent(type: string, object: { id: string; object: string }): string {
  return JSON.stringify({
    id: newId('evt'),
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}

const stripeForSigning = new Stripe(STRIPE_TEST_KEYS.secretKey);

/**
 * The Stripe-Signature header Stripe would send with this exact payload. `timestamp` (seconds)
 * defaults to now; `secret` to the app's webhook secret.
 */
export function signStripePayload(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return stripeForSigning.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_TEST_KEYS.webhookSecret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
}
