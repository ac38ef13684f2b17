import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadTestConfig } from './config.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { createTestPaymentProvider } from './platform/payments/test-provider.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { TestClock } from './testing/build-test-app.ts';
import { openTestDatabase, testDatabaseUrl } from './testing/test-database.ts';
import { type Database, openPostgres } from './db/client.ts';
import { isDatabaseUnreachable } from './db/errors.ts';
import { selectRawRows } from './db/raw-rows.ts';

const UNAVAILABLE = {
  error: {
    code: 'SERVICE_UNAVAILABLE',
    message: 'The school is reconnecting to its database. Your work is saved: please try again in a few seconds.',
  },
};

/** A PostgreSQL error as node-postgres reports the server's answer (it carries a `routine`). */
const serverError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL', routine: 'ProcessInterrupts' });
/** Drizzle wraps the driver's error as its cause. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A server that accepts connections and never says a word: a database host that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The real app (buildApp, as main.ts builds it) on the given database. */
async function appOn(database: Database): Promise<FastifyInstance> {
  const clock = new TestClock();
  const config = loadTestConfig();
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-outbox-'));
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    payments: createTestPaymentProvider(database.db, clock),
    mailer: createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir }),
  });
  await app.ready();
  return app;
}

/** A bare app with the API's error handler and one route running `statement` on `database`. */
async function routeRunning(database: Database, statement: ReturnType<typeof sql>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/api/statement', async () => selectRawRows(database.db, statement));
  await app.ready();
  return app;
}

function expectUnavailable(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('3');
  // Beside the code and message, the body may name its request (decision 060).
  expect(response.json()).toMatchObject(UNAVAILABLE);
}

// Decision 061: every way of not reaching the database is told apart, in one place, from a
// statement that failed.
describe('what counts as the database being away', () => {
  it('counts a connection the server ended or refused: a restart, a crash, a failover', () => {
    expect(isDatabaseUnreachable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
    expect(isDatabaseUnreachable(serverError('57P02', 'terminating connection due to crash of another process'))).toBe(
      true,
    );
    expect(isDatabaseUnreachable(serverError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnreachable(serverError('08006', 'connection failure'))).toBe(true);
    expect(isDatabaseUnreachable(serverError('08001', 'could not connect'))).toBe(true);
  });

  it("counts the socket's own failures, refused, reset or unreachable", () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']) {
      expect(isDatabaseUnreachable(Object.assign(new Error(`connect ${code}`), { code })), code).toBe(true);
    }
  });

  it("counts node-postgres' ended connections and its timeouts, wrapped by drizzle or not", () => {
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    expect(isDatabaseUnreachable(wrapped(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(new Error('Connection terminated due to connection timeout')))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(new Error('Query read timeout')))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(new Error('timeout expired')))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(serverError('57P01', 'terminating connection')))).toBe(true);
  });

  it('does not count a statement the database answered with an error', () => {
    expect(isDatabaseUnreachable(serverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnreachable(wrapped(serverError('22012', 'division by zero')))).toBe(false);
    expect(isDatabaseUnreachable(serverError('57014', 'canceling statement due to statement timeout'))).toBe(false);
    // A server's own message is its answer, whatever words it uses.
    expect(isDatabaseUnreachable(serverError('P0001', 'connection terminated by the caller'))).toBe(false);
    expect(isDatabaseUnreachable(new Error('Something else'))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
  });
});

describe('a database nobody answers at', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = openPostgres(`postgres://postgres@127.0.0.1:${String(await closedPort())}/school`);
    app = await appOn(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('makes the health check 503 SERVICE_UNAVAILABLE with Retry-After, which a load balancer reads as down', async () => {
    expectUnavailable(await app.inject({ method: 'GET', url: '/api/health' }));
  });

  it('answers a read and a sign-in 503 with Retry-After, never 500', async () => {
    expectUnavailable(await app.inject({ method: 'GET', url: '/api/public/courts' }));
    expectUnavailable(
      await app.inject({
        method: 'POST',
        url: '/api/login/student',
        payload: { last_name: 'Rivera', dl_number: 'D1234567' },
      }),
    );
  });
});

describe('a database host that accepts connections and never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    silent = await silentServer();
    database = openPostgres(`postgres://postgres@127.0.0.1:${String(silent.port)}/school`, {
      timeouts: { connectMs: 300 },
    });
    app = await appOn(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await silent.close();
  });

  it('answers 503 with Retry-After once the connection timeout has passed, rather than hanging', async () => {
    expectUnavailable(await app.inject({ method: 'GET', url: '/api/health' }));
    expectUnavailable(await app.inject({ method: 'GET', url: '/api/public/courts' }));
  });
});

// These need a PostgreSQL server (CI runs the suite on both engines, as database-restart.test.ts
// does); on the embedded database there is no connection to lose or wait for (decision 061).
describe('a PostgreSQL that is up', () => {
  const url = testDatabaseUrl();
  let database: Database & { url?: string };
  const opened: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });
  afterAll(async () => {
    await database.close();
  });

  it('still answers a statement that failed 500 INTERNAL, without its SQL', async () => {
    const app = await routeRunning(database, sql`select 1 / 0`);
    opened.push(app);
    const response = await app.inject({ method: 'GET', url: '/api/statement' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
    expect(response.json()).toMatchObject({ error: { code: 'INTERNAL', message: 'Something went wrong.' } });
  });

  it('answers 503 when the server ends the connection a statement runs on (a restart: 57P01)', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const app = await routeRunning(database, sql`select pg_sleep(30)`);
    opened.push(app);
    const answer = app.inject({ method: 'GET', url: '/api/statement' });
    const admin = new pg.Client(url);
    await admin.connect();
    try {
      const databaseName = new URL(database.url!).pathname.slice(1);
      // The sleeping statement's backend, ended as a restart ends it.
      await expect
        .poll(async () => {
          const { rows } = await admin.query<{ ended: boolean }>(
            "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and query like 'select pg_sleep%'",
            [databaseName],
          );
          return rows.length;
        })
        .toBe(1);
    } finally {
      await admin.end();
    }
    expectUnavailable(await answer);
  });

  it('answers 503 when every connection of the pool stays busy past the wait for a free one', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const small = openPostgres(database.url!, { max: 1, timeouts: { freeConnectionMs: 300 } });
    opened.push(small);
    let release = () => {};
    const held = small.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const app = await routeRunning(small, sql`select 1 as one`);
    opened.push(app);
    try {
      expectUnavailable(await app.inject({ method: 'GET', url: '/api/statement' }));
    } finally {
      release();
      await held;
    }
    // The held connection back, the next call is served.
    expect((await app.inject({ method: 'GET', url: '/api/statement' })).json()).toEqual([{ one: 1 }]);
  });

  it('serves a call that waited for a busy pool longer than a new connection may take to open: a crowd is not an outage', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const busy = openPostgres(database.url!, { max: 1, timeouts: { connectMs: 200, freeConnectionMs: 10_000 } });
    opened.push(busy);
    let release = () => {};
    const held = busy.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const app = await routeRunning(busy, sql`select 1 as one`);
    opened.push(app);
    const queuedAt = performance.now();
    const answer = app.inject({ method: 'GET', url: '/api/statement' });
    // The call is still waiting for the one connection well after a new one may take to open.
    await expect.poll(() => performance.now() - queuedAt > 600, { interval: 50 }).toBe(true);
    release();
    await held;
    const served = await answer;
    expect(served.statusCode, served.body).toBe(200);
    expect(served.json()).toEqual([{ one: 1 }]);
  });

  it('answers 503 when a statement gets no answer within the statement timeout (a dead connection)', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const waiting = openPostgres(database.url!, { max: 1, timeouts: { statementMs: 300 } });
    opened.push(waiting);
    const app = await routeRunning(waiting, sql`select pg_sleep(2)`);
    opened.push(app);
    expectUnavailable(await app.inject({ method: 'GET', url: '/api/statement' }));
  });
});
