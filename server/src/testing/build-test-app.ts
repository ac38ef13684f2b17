import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { type Config, loadTestConfig } from '../config.ts';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite, PgliteDatabase } from 'drizzle-orm/pglite';
import { type Database, type Db, openPostgres } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { PaymentProvider } from '../platform/payments/provider.ts';
import { createTestPaymentProvider } from '../platform/payments/test-provider.ts';
import { createMailer, type Mailer } from '../platform/mail/mailer.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '../plugins/session.ts';
import { openTestDatabase } from './test-database.ts';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-22T15:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database & { url?: string };
  clock: TestClock;
  config: Config;
  mailer: Mailer;
  /** Where the default test mailer writes its .eml files. */
  outboxDir: string;
  close(): Promise<void>;
}

/** The real app (the same buildApp main.ts uses) on a fresh database of its own. */
export async function buildTestApp(
  options: {
    config?: Record<string, string>;
    webDist?: string;
    /** Another payment provider (a Stripe adapter against a local Stripe-shaped server). */
    payments?: (db: Db, clock: Clock) => PaymentProvider;
    /** Mail goes to .eml files in a temporary outbox unless a test passes its own mailer. */
    mailer?: Mailer;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = new TestClock();
  const config = loadTestConfig(options.config);
  const payments = options.payments
    ? options.payments(database.db, clock)
    : createTestPaymentProvider(database.db, clock);
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-outbox-'));
  const mailer = options.mailer ?? createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir });
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    payments,
    mailer,
    ...(options.webDist ? { webDist: options.webDist } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    clock,
    config,
    mailer,
    outboxDir,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A second instance of the server on the same database, as in production behind a load balancer:
 * its own app and its own database handle, so nothing kept in memory (course content, prepared
 * statements) is shared with the first. On PostgreSQL a pool of its own; on PGlite a second
 * drizzle handle over the same embedded database.
 */
export async function buildSecondInstance(first: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const { database } = first;
  const url = 'url' in database && typeof database.url === 'string' ? database.url : undefined;
  let db: Db;
  let closeDb = async () => undefined as void;
  if (url) {
    const second = openPostgres(url, { max: 2 });
    db = second.db;
    closeDb = () => second.close();
  } else if (first.db instanceof PgliteDatabase && '$client' in first.db && first.db.$client instanceof PGlite) {
    db = drizzlePglite({ client: first.db.$client, schema });
  } else {
    throw new Error('a second instance needs PostgreSQL or PGlite');
  }
  const app = await buildApp({
    config: first.config,
    db,
    clock: first.clock,
    payments: createTestPaymentProvider(db, first.clock),
    mailer: first.mailer,
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await closeDb();
    },
  };
}

/** The session cookie a sign-in answer set, as a Cookie header value. */
export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`no ${SESSION_COOKIE} cookie in the answer (status ${String(response.statusCode)})`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}
