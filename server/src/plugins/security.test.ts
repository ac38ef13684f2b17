import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { securityHeaders } from './security.ts';
import { createLocalStripeProvider, startStripeApiServer, type StripeApiServer } from '../testing/stripe-api-server.ts';

const TEST_PROVIDER_CONFIRM = '/api/test-provider/payment_intents/pi_test_1/confirm';
const TEST_PROVIDER_CALL = '/api/test-provider/payment_intents/pi_test_1?client_secret=pi_test_1_secret_x';

describe('the school on plain http (a laptop, the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells browsers not to keep API answers, which carry personal data, and leaves the app page to its own rule', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['cache-control']).toBe('no-store');
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['cache-control']).not.toBe('no-store');
  });

  it('sends no Strict-Transport-Security header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves the built-in test provider while test payments are in use', async () => {
    // A served route reads the body (400 for a missing card); a route that is not there answers 404.
    const response = await t.app.inject({ method: 'POST', url: TEST_PROVIDER_CONFIRM, payload: {} });
    expect(response.statusCode).toBe(400);
  });
});

describe('the school on an https address with Stripe', () => {
  let stripe: StripeApiServer;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startStripeApiServer();
    t = await buildTestApp({
      config: { PUBLIC_URL: 'https://school.example' },
      payments: () => createLocalStripeProvider(stripe),
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('tells browsers to keep to https for a year (HSTS)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('has no test-provider routes at all: a card number cannot mark anyone paid', async () => {
    const read = await t.app.inject({ method: 'GET', url: TEST_PROVIDER_CALL });
    expect(read.statusCode).toBe(404);
    const confirm = await t.app.inject({ method: 'POST', url: TEST_PROVIDER_CONFIRM, payload: {} });
    expect(confirm.statusCode).toBe(404);
  });
});

describe('the Content-Security-Policy', () => {
  const mediaSources = (videoBaseUrl?: string) =>
    /media-src ([^;]*)/.exec(
      securityHeaders({ stripe: false, https: true, videoBaseUrl })['content-security-policy'] ?? '',
    )?.[1];

  it('admits the origin of videos served from a CDN (VIDEO_BASE_URL), and only the school itself otherwise', () => {
    expect(mediaSources('https://cdn.example.com/videos')).toBe("'self' https://cdn.example.com");
    expect(mediaSources('/videos')).toBe("'self'");
    expect(mediaSources()).toBe("'self'");
  });
});
