import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateDeliveries } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { completedStudent, createCourseStudent, passCourse } from '../testing/certificates.ts';
import { buildRegistration, createStudent } from '../testing/factories.ts';
import { confirmTestCard, markPaid, startPayment } from '../testing/payments.ts';
import { METRICS_PATH } from './metrics.ts';

/** Decision 060: Prometheus metrics for the bearer of METRICS_TOKEN, nothing without it. */

const TOKEN = 'metrics-token-for-the-test-0123456789';
const METRIC_NAMES = [
  'http_request_duration_seconds',
  'certificate_deliveries',
  'certificate_delivery_oldest_queued_age_seconds',
  'registrations_total',
  'payments_succeeded_total',
  'certificates_issued_total',
  // prom-client's default process metrics, the event-loop lag the README's alert reads among them.
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_seconds',
];

/** The value of one series in a Prometheus text answer (labels as written, in order), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics with METRICS_TOKEN set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: METRICS_PATH,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('refuses a scrape without a token, or with a wrong one, with a 401 and no metrics', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, TOKEN]) {
      const response = await t.app.inject({
        method: 'GET',
        url: METRICS_PATH,
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('UNAUTHENTICATED');
      expect(response.body).not.toContain('registrations_total');
    }
  });

  it('answers the Prometheus text with every metric to the bearer of the token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: METRICS_PATH,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    for (const name of METRIC_NAMES) expect(response.body, name).toContain(`# TYPE ${name} `);
    // PostgreSQL's pool by state; the embedded database has no pool to report.
    for (const state of ['total', 'idle', 'waiting']) {
      expect(response.body.includes(`db_pool_connections{state="${state}"} `)).toBe(t.database.kind === 'postgres');
    }
  });

  it("labels a request's time with its route's pattern, never the URL it was called with", async () => {
    await t.app.inject({ method: 'GET', url: '/api/public/payment/987654/paymentAmount?x=1' });
    const text = await scrape();
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/api\/public\/payment\/:studentId\/paymentAmount",status_code="\d{3}"\} [1-9]/m,
    );
    expect(text).not.toContain('987654');
  });

  it('labels every path no route matched as one series, so probes of random paths make no new ones', async () => {
    await t.app.inject({ method: 'GET', url: '/api/no-such-call-4242' });
    const text = await scrape();
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} [1-9]/m,
    );
    expect(text).not.toContain('no-such-call-4242');
  });

  it('counts a registration once it is written', async () => {
    const before = valueOf(await scrape(), 'registrations_total') ?? 0;
    const response = await t.app.inject({ method: 'POST', url: '/api/register/student', payload: buildRegistration() });
    expect(response.statusCode).toBe(201);
    expect(valueOf(await scrape(), 'registrations_total')).toBe(before + 1);
  });

  it('counts a card payment once, however many times it is confirmed', async () => {
    const before = valueOf(await scrape(), 'payments_succeeded_total') ?? 0;
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    expect((await confirmTestCard(t, intent)).statusCode).toBe(200);
    // The /pay page's hint after the redirect confirms the same payment again.
    expect((await markPaid(t, intent.paymentIntentId)).statusCode).toBe(200);
    expect(valueOf(await scrape(), 'payments_succeeded_total')).toBe(before + 1);
  });

  it('counts the certificate a passed final issues', async () => {
    const before = valueOf(await scrape(), 'certificates_issued_total') ?? 0;
    const student = await createCourseStudent(t);
    await passCourse(student.client, t.db, student.id);
    expect(valueOf(await scrape(), 'certificates_issued_total')).toBe(before + 1);
  });

  it('reports the certificate emails by status and how long the oldest queued one has waited', async () => {
    const { certificate } = await completedStudent(t);
    await t.db
      .update(certificateDeliveries)
      .set({ queuedAt: new Date(t.clock.now().getTime() - 90_000) })
      .where(eq(certificateDeliveries.certificateId, certificate.id));
    const text = await scrape();
    expect(valueOf(text, 'certificate_deliveries{status="queued"}')).toBeGreaterThanOrEqual(2);
    expect(valueOf(text, 'certificate_deliveries{status="failed"}')).toBe(0);
    expect(valueOf(text, 'certificate_delivery_oldest_queued_age_seconds')).toBeGreaterThanOrEqual(90);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    // A stand-in for web/dist, so that /metrics is answered as any unknown page is.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-web-'));
    fs.writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body></body></html>',
    );
    t = await buildTestApp({ webDist: root });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is an unknown page like any other: the app page, with no metric in it, whatever the token offered', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await t.app.inject({
        method: 'GET',
        url: METRICS_PATH,
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode).toBe(unknown.statusCode);
      expect(response.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(response.body).toBe(unknown.body);
      expect(response.body).not.toMatch(/registrations_total|process_cpu|http_request_duration/);
    }
  });
});
