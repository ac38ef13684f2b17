/**
 * Load scenarios for the API (autocannon, on this machine's loopback only). Each scenario is
 * bounded in time; figures go to bench/README.md. Run: npm run bench
 * BENCH_DATABASE_URL=postgres://... runs them on PostgreSQL instead of PGlite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openPglite, openPostgres } from '../server/src/db/client.ts';
import { migrateDatabase } from '../server/src/db/migrate.ts';
import { loadContent } from '../server/src/db/seed.ts';
import { systemClock } from '../server/src/platform/clock.ts';
import { createMailer } from '../server/src/platform/mail/mailer.ts';
import { createPaymentProvider } from '../server/src/platform/payments/index.ts';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 100;

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-bench-'));
  const database = url ? openPostgres(url, { max: 10 }) : await openPglite({ dataDir });
  await migrateDatabase(database);
  await loadContent(database.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'production' });
  const payments = createPaymentProvider(config, database.db, systemClock);
  const mailer = createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') });
  const app = await buildApp({ config, db: database.db, clock: systemClock, payments, mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${String(address.port)}`;

  // One registered student with a session, for the signed-in scenario.
  const suffix = String(Date.now());
  const registration = await fetch(`${base}/api/register/student`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Bench',
      last_name: 'Runner',
      email: `bench${suffix}@example.com`,
      dl_number: `B${suffix}`,
      dob: '01/02/1990',
      address: '1 Loop Road',
      city: 'Fresno',
      state: 'CA',
      zip: '93721',
      court: 1,
    }),
  });
  if (registration.status !== 201) throw new Error(`registration failed: ${String(registration.status)}`);
  const login = await fetch(`${base}/api/login/student`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ last_name: 'Runner', dl_number: `B${suffix}` }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  const scenarios: { name: string; path: string; headers?: Record<string, string> }[] = [
    { name: 'GET /api/health (one database round trip)', path: '/api/health' },
    { name: 'GET /api/public/courts (public list)', path: '/api/public/courts' },
    { name: 'GET /api/health with a session cookie (+ session lookup)', path: '/api/health', headers: { cookie } },
    { name: 'GET /api/me (session lookup + user)', path: '/api/me', headers: { cookie } },
  ];
  console.log(`database: ${database.kind}, ${String(CONNECTIONS)} connections, ${String(DURATION_SECONDS)} s each\n`);
  for (const scenario of scenarios) {
    const result = await autocannon({
      url: `${base}${scenario.path}`,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      headers: scenario.headers ?? {},
    });
    const errors = result.errors + result.non2xx;
    console.log(
      `${scenario.name}: ${result.requests.average.toFixed(0)} req/s, p50 ${String(result.latency.p50)} ms, p99 ${String(result.latency.p99)} ms, errors ${String(errors)}`,
    );
  }
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
