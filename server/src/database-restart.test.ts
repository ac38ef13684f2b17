import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from './db/client.ts';
import { selectRawRows } from './db/raw-rows.ts';
import { SESSION_COOKIE } from './plugins/session.ts';
import { buildTestApp, type TestApp } from './testing/build-test-app.ts';
import { signInPaidStudent } from './testing/course.ts';
import { createStudent, markStudentPaid } from './testing/factories.ts';
import { openTestDatabase, testDatabaseUrl } from './testing/test-database.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A port nobody listens on now (the server is then started on it). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real server (`npm start`'s entry), in a process of its own, on the given database. */
async function startServerProcess(
  databaseUrl: string,
): Promise<{ child: ChildProcess; base: string; output: string[] }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-restart-'));
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'a-long-first-admin-password',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const base = `http://127.0.0.1:${String(port)}`;
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server did not start:\n${output.join('')}`);
      expect((await fetch(`${base}/api/health`)).ok).toBe(true);
    },
    { timeout: 60_000, interval: 200 },
  );
  return { child, base, output };
}

/** What a restart or a failover does to a database's connections: every backend ended by the server. */
async function endEveryBackend(adminUrl: string, databaseName: string): Promise<number> {
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

interface Student {
  id: number;
  cookie: string;
  /** A module of chapter 1, which the stream marks complete again and again. */
  moduleId: number;
}

async function signIn(base: string, student: { lastName: string; dlNumber: string }): Promise<string> {
  const response = await fetch(`${base}/api/login/student`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ last_name: student.lastName, dl_number: student.dlNumber }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

/** One round of a student's calls, as the course pages make them; answers each call's status. */
async function studentCalls(base: string, student: Student): Promise<number[]> {
  const headers = { cookie: student.cookie, 'content-type': 'application/json' };
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/me'],
    ['GET', '/api/content/chapters'],
    ['GET', '/api/content/modules/1'],
    ['GET', `/api/students/${String(student.id)}/completedChapters`],
    ['GET', `/api/students/${String(student.id)}/seat-time`],
    ['POST', '/api/students/moduleComplete', { studentId: student.id, moduleId: student.moduleId }],
    // Refused until chapter 1's modules are complete (409): a read of progress all the same.
    ['GET', '/api/quiz/questions/1'],
  ];
  const statuses: number[] = [];
  for (const [method, url, body] of calls) {
    try {
      const response = await fetch(`${base}${url}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    } catch {
      statuses.push(0);
    }
  }
  return statuses;
}

/** Milliseconds until a student's reads answer 200 again. */
async function timeToRecover(base: string, student: Student): Promise<number> {
  const started = Date.now();
  await vi.waitFor(
    async () => {
      const [me, chapters] = await Promise.all([
        fetch(`${base}/api/me`, { headers: { cookie: student.cookie } }),
        fetch(`${base}/api/content/chapters`, { headers: { cookie: student.cookie } }),
      ]);
      expect([me.status, chapters.status]).toEqual([200, 200]);
    },
    { timeout: 10_000, interval: 25 },
  );
  return Date.now() - started;
}

/** The connections a database has now (its server's backends). */
async function backendsOf(adminUrl: string, databaseName: string): Promise<number> {
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ count: string }>(
      'select count(*) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );
    return Number(rows[0]?.count);
  } finally {
    await admin.end();
  }
}

// ARCHITECTURE.md (PostgreSQL in production): a restart or failover of the database ends every
// connection the server holds, idle, checked out, in a transaction or listening; the process must
// outlive it and serve again as soon as the database is back.
describe('a PostgreSQL restart under load', () => {
  const url = testDatabaseUrl();
  let database: Database & { url?: string };
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let students: Student[];
  beforeAll(async () => {
    if (!url) return;
    database = await openTestDatabase();
    server = await startServerProcess(database.url!);
    students = [];
    for (let n = 0; n < 4; n += 1) {
      const created = await createStudent(database.db);
      await markStudentPaid(database.db, created.id);
      const cookie = await signIn(server.base, created);
      const modules = (await (await fetch(`${server.base}/api/content/modules/1`, { headers: { cookie } })).json()) as {
        id: number;
      }[];
      students.push({ id: created.id, cookie, moduleId: modules[0]!.id });
    }
  }, 90_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await database?.close();
  });

  it('fails a transaction whose connection was ended between two statements, and serves the next call on a new connection', async () => {
    // On the embedded database there is no server to end connections (CI runs the suite on both).
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const databaseName = new URL(database.url!).pathname.slice(1);
    const interrupted = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      expect(await endEveryBackend(url, databaseName)).toBeGreaterThan(0);
      // The server's termination reaches the checked-out connection while no statement runs on it.
      await vi.waitFor(async () => expect(await backendsOf(url, databaseName)).toBe(0));
      await tx.execute(sql`select 2`);
    });
    await expect(interrupted).rejects.toThrow();
    expect(await selectRawRows(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it('keeps the process alive through five rounds of every backend ended, and serves again within a second of each', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const databaseName = new URL(database.url!).pathname.slice(1);
    let running = true;
    const statuses: number[] = [];
    // A steady stream of the students' calls, four at a time, while the workers run in the process.
    const streams = students.map(async (student) => {
      while (running) statuses.push(...(await studentCalls(server.base, student)));
    });
    const recoveries: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      // Some of the stream is served first, so connections are open, checked out and in transactions.
      const served = statuses.length;
      await vi.waitFor(() => expect(statuses.length).toBeGreaterThan(served + 40), { timeout: 20_000 });
      expect(await endEveryBackend(url, databaseName)).toBeGreaterThan(0);
      expect(server.child.exitCode, server.output.join('')).toBeNull();
      recoveries.push(await timeToRecover(server.base, students[round % students.length]!));
    }
    running = false;
    await Promise.all(streams);

    expect(server.child.exitCode, server.output.join('')).toBeNull();
    expect(server.child.signalCode).toBeNull();
    for (const recovery of recoveries) expect(recovery).toBeLessThan(1_000);
    // The stream was served between the rounds, and nothing hung (a hang shows as 0).
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(50);
    expect(statuses).not.toContain(0);
    // A call caught by the restart is told to try again (503 with Retry-After), never 500.
    expect(statuses).not.toContain(500);
    // After the last round, every call of a round succeeds.
    const after = await studentCalls(server.base, students[0]!);
    expect(
      after.every((status) => status < 500 && status > 0),
      after.join(','),
    ).toBe(true);
  }, 120_000);
});

// The embedded database has no connections to lose (a closed data directory ends the server on
// purpose), but a statement can fail: the one connection must not be left inside the failed
// transaction, or every later call would fail with it.
describe('a failed statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("fails only its own transaction: the student's next calls are served", async () => {
    const { id, client } = await signInPaidStudent(t);
    const failed = t.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.execute(sql`select 1 / 0`);
    });
    await expect(failed).rejects.toThrow();
    expect((await client.get('/api/me')).statusCode).toBe(200);
    expect((await client.get(`/api/students/${String(id)}/completedChapters`)).statusCode).toBe(200);
    expect((await client.get('/api/content/chapters')).statusCode).toBe(200);
  });
});
