/**
 * Load scenarios for the API (autocannon, on this machine's loopback only, from a worker thread
 * of its own: load.ts). Each scenario is bounded in time; figures go to bench/README.md. Run: npm run bench
 * BENCH_DATABASE_URL=postgres://... runs them on PostgreSQL instead of PGlite.
 *
 * Each scenario is measured against its own anchor, run just before it: a bare Fastify handler
 * doing one primary-key lookup on the same database, the measure the speed goals in README.md
 * are set against. The ratio of the two cancels most of this shared machine's run-to-run noise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.ts';
import { defaultDatabasePoolSize, loadConfig, PRODUCTION_WITHOUT_SERVICES } from '../server/src/config.ts';
import { type Db, openPglite, openPostgres } from '../server/src/db/client.ts';
import { migrateDatabase } from '../server/src/db/migrate.ts';
import { loadContent } from '../server/src/db/seed.ts';
import { counties, courts, moduleCompletions, modules, students } from '../server/src/db/schema.ts';
import { answersFor, recordChapterPassed } from '../server/src/testing/course.ts';
import { BENCH_LAST_NAME, benchRegistration } from './registration.ts';
import { postgresCpuSeconds } from './cpu.ts';
import { type LoadClient, runLoad } from './load.ts';
import type { Quiz } from '@ts/contract';
import { systemClock } from '../server/src/platform/clock.ts';
import { createMailer } from '../server/src/platform/mail/mailer.ts';
import { createPaymentProvider } from '../server/src/platform/payments/index.ts';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The speed goals (README.md) are set at 50 connections; BENCH_CONNECTIONS changes it. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** How many turns the anchor and the scenario take within BENCH_SECONDS each. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// BENCH_ONLY=heartbeat runs only the scenarios whose name contains it.

interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Per connection (one student each): its own cookie and body. */
  clients?: LoadClient[];
}

/** Registers a student through the API and signs them in; returns the student id and session cookie. */
async function registerAndSignIn(base: string, tag: string, court: number) {
  const registrationBody = benchRegistration(tag, court);
  const registration = await fetch(`${base}/api/register/student`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody),
  });
  if (registration.status !== 201) throw new Error(`registration failed: ${String(registration.status)}`);
  const { studentId } = (await registration.json()) as { studentId: number };
  const login = await fetch(`${base}/api/login/student`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ last_name: BENCH_LAST_NAME, dl_number: registrationBody.dl_number }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { studentId, cookie };
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-bench-'));
  const database = url
    ? openPostgres(url, { max: Number(process.env.BENCH_POOL ?? defaultDatabasePoolSize()) })
    : await openPglite({ dataDir });
  await migrateDatabase(database);
  await loadContent(database.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...PRODUCTION_WITHOUT_SERVICES });
  const payments = createPaymentProvider(config, database.db, systemClock);
  const mailer = createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') });
  const app = await buildApp({ config, db: database.db, clock: systemClock, payments, mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${String(address.port)}`;

  // One registered, paid student with a session, for the signed-in scenarios.
  const suffix = String(Date.now());
  const { studentId, cookie } = await registerAndSignIn(base, suffix, 1);
  await database.db.update(students).set({ paymentAt: new Date() }).where(eq(students.id, studentId));

  // The quiz draw: one student per connection, each having studied chapter 1 (its modules
  // complete); the first draw makes the attempt, and every later one shows that same unsubmitted
  // attempt again (as a reload does).
  const chapterOneModules = await database.db.select({ id: modules.id }).from(modules).where(eq(modules.chapterId, 1));
  const readers: { studentId: number; cookie: string }[] = [];
  for (let n = 0; n < CONNECTIONS; n++) {
    const reader = await registerAndSignIn(base, `${suffix}q${String(n)}`, 1);
    await database.db.update(students).set({ paymentAt: new Date() }).where(eq(students.id, reader.studentId));
    await database.db.insert(moduleCompletions).values(
      chapterOneModules.map((module) => ({
        studentId: reader.studentId,
        moduleId: module.id,
        completedAt: new Date(),
      })),
    );
    readers.push(reader);
  }

  // The anchor: bare Fastify, no plugins, one primary-key lookup on the same database.
  const anchor = Fastify({ logger: false });
  const lookup = database.db
    .select({ id: students.id, lastName: students.lastName })
    .from(students)
    .where(eq(students.id, sql.placeholder('id')))
    .prepare('bench_anchor_lookup');
  anchor.get('/lookup', async () => (await lookup.execute({ id: studentId }))[0] ?? null);
  await anchor.listen({ port: 0, host: '127.0.0.1' });
  const anchorAddress = anchor.server.address();
  if (anchorAddress === null || typeof anchorAddress === 'string') throw new Error('no anchor port');
  const anchorUrl = `http://127.0.0.1:${String(anchorAddress.port)}/lookup`;

  // Heartbeats: one paid student per connection, under the 4-hour profile of a Florida court,
  // each on the first module of chapter 1 (the page sends one every 30 s while a student is active).
  const [timedCourt] = await database.db
    .select({ id: courts.id })
    .from(courts)
    .innerJoin(counties, eq(courts.countyId, counties.id))
    .where(and(eq(counties.state, 'FL'), eq(courts.rulesProfileId, 'four-hour-identity')))
    .limit(1);
  const [firstModule] = await database.db
    .select({ id: modules.id })
    .from(modules)
    .where(eq(modules.chapterId, 1))
    .orderBy(asc(modules.position))
    .limit(1);
  if (!timedCourt || !firstModule) throw new Error('no timed court or module in the content');
  const learners: { studentId: number; cookie: string }[] = [];
  for (let n = 0; n < CONNECTIONS; n++) {
    const learner = await registerAndSignIn(base, `${suffix}h${String(n)}`, timedCourt.id);
    await database.db.update(students).set({ paymentAt: new Date() }).where(eq(students.id, learner.studentId));
    learners.push(learner);
  }

  const scenarios: Scenario[] = [
    { name: 'GET /api/health (one database round trip)', path: '/api/health' },
    { name: 'GET /api/public/courts (public list)', path: '/api/public/courts' },
    {
      name: 'GET /api/health with a session cookie (a public route: the cookie is parsed, never looked up)',
      path: '/api/health',
      headers: { cookie },
    },
    { name: 'GET /api/me (session lookup + user)', path: '/api/me', headers: { cookie } },
    { name: 'GET /api/content/chapters (signed-in student)', path: '/api/content/chapters', headers: { cookie } },
    {
      name: 'GET /api/content/modules/1?userId= (signed-in student)',
      path: `/api/content/modules/1?userId=${String(studentId)}`,
      headers: { cookie },
    },
    {
      name: 'GET /api/students/:id/completedChapters (signed-in student)',
      path: `/api/students/${String(studentId)}/completedChapters`,
      headers: { cookie },
    },
    {
      name: 'GET /api/quiz/questions/1 (the open attempt shown again, one student per connection)',
      path: '/api/quiz/questions/1',
      clients: readers.map((reader) => ({ headers: { cookie: reader.cookie } })),
    },
    {
      // Back to back, so after each student's first only one in 5 s is written (the flood guard).
      name: 'POST /api/students/heartbeat back to back (4-hour profile, one student per connection)',
      path: '/api/students/heartbeat',
      method: 'POST',
      clients: learners.map((learner) => ({
        headers: { cookie: learner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ studentId: learner.studentId, moduleId: firstModule.id }),
      })),
    },
  ];
  console.log(
    `database: ${database.kind}, ${String(CONNECTIONS)} connections, ${String(DURATION_SECONDS)} s each, every scenario after its own bare-lookup anchor\n`,
  );
  const only = process.env.BENCH_ONLY;
  for (const scenario of scenarios.filter((candidate) => !only || candidate.name.includes(only))) {
    const load = (duration: number) =>
      runLoad({
        url: `${base}${scenario.path}`,
        connections: CONNECTIONS,
        duration,
        method: scenario.method ?? 'GET',
        headers: scenario.headers ?? {},
        ...(scenario.clients ? { clients: scenario.clients } : {}),
      });
    // First one continuous run: its latencies are the ones printed (a run's first requests are its
    // 50 connections opening at once, a burst each short turn below would count again), and it
    // warms the route, so both sides of the ratio are measured warm (the anchor's one path is hot
    // at once, while a scenario's first seconds include compiling its code: 0.1 of a ratio).
    const steady = await load(DURATION_SECONDS);
    // The anchor and the scenario take turns (ROUNDS each, a share of the time each), so a slow
    // spell of this shared machine falls on both sides of the ratio rather than on one.
    const slice = Math.max(1, Math.round(DURATION_SECONDS / ROUNDS));
    const anchorRuns: autocannon.Result[] = [];
    const runs: autocannon.Result[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      anchorRuns.push(await runLoad({ url: anchorUrl, connections: CONNECTIONS, duration: slice }));
      // BENCH_CPU_PROFILE records the scenario's last turn.
      const profiler = round === ROUNDS - 1 ? await startProfile(scenario.name) : undefined;
      runs.push(await load(slice));
      await profiler?.stop();
    }
    const bare = combineRuns(anchorRuns);
    const result = combineRuns(runs);
    const errors = result.errors + steady.errors + steady.non2xx;
    // The median turn's ratio: one turn disturbed by the shared machine (on either side) does not
    // move it, as it moves a ratio over all turns (printed after it).
    const turns = runs.map((run, n) => perSecond(run) / perSecond(anchorRuns[n]!));
    const ratio = [...turns].sort((a, b) => a - b)[Math.floor(turns.length / 2)]!;
    console.log(
      `${scenario.name}: ${result.perSecond.toFixed(0)} req/s, p50 ${String(steady.latency.p50)} ms, p99 ${String(steady.latency.p99)} ms, errors ${String(errors)}; anchor ${bare.perSecond.toFixed(0)} req/s; ratio ${ratio.toFixed(2)} (turns ${turns.map((turn) => turn.toFixed(2)).join(', ')}; over all ${(result.perSecond / bare.perSecond).toFixed(2)})`,
    );
  }
  if (!only || 'POST /api/quiz/score'.includes(only)) {
    await benchFinalPasses(base, database.db, `${suffix}f`, anchorUrl);
  }
  await anchor.close();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** A run's requests per second over its whole duration. */
function perSecond(run: autocannon.Result): number {
  return run.requests.total / run.duration;
}

/** Several autocannon runs of one target as one: requests per second over all, and errors. */
function combineRuns(runs: autocannon.Result[]): { perSecond: number; errors: number } {
  const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
  const seconds = runs.reduce((sum, run) => sum + run.duration, 0);
  return { perSecond: requests / seconds, errors: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0) };
}

/**
 * POST /api/quiz/score for a final pass: each student passes once, so this is not a timed
 * autocannon run but SCORE_STUDENTS students (chapters 1-4 recorded, the final drawn) submitting
 * passing answers, CONNECTIONS at a time. A pass completes the course and issues the certificate
 * (its number and record) in the grading transaction; the PDF is rendered afterwards.
 */
async function benchFinalPasses(base: string, db: Db, tag: string, anchorUrl: string): Promise<void> {
  const count = Number(process.env.BENCH_FINAL_STUDENTS ?? CONNECTIONS * 2);
  // The first CONNECTIONS students pass before the measure starts, unmeasured: a server that has
  // just started compiles the grading path and prepares its statements on the first passes, which
  // a running school's server did long ago (BENCH_FINAL_WARMUP=0 measures from cold).
  const warmup = Number(process.env.BENCH_FINAL_WARMUP ?? CONNECTIONS);
  const submissions: { cookie: string; body: string }[] = [];
  for (let n = 0; n < warmup + count; n++) {
    const learner = await registerAndSignIn(base, `${tag}${String(n)}`, 1);
    await db.update(students).set({ paymentAt: new Date() }).where(eq(students.id, learner.studentId));
    for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(db, learner.studentId, chapter);
    const drawn = await fetch(`${base}/api/quiz/finalExamQuestions/${String(learner.studentId)}`, {
      headers: { cookie: learner.cookie },
    });
    if (drawn.status !== 200) throw new Error(`final draw: ${String(drawn.status)} ${await drawn.text()}`);
    const quiz = (await drawn.json()) as Quiz;
    const answers = await answersFor(db, quiz, quiz.questions.length);
    submissions.push({
      cookie: learner.cookie,
      body: JSON.stringify({ studentId: learner.studentId, chapter: 6, attemptId: quiz.attemptId, questions: answers }),
    });
  }
  await submitAll(base, submissions.splice(0, warmup));
  const bare = await runLoad({ url: anchorUrl, connections: CONNECTIONS, duration: DURATION_SECONDS });
  // The students submit from a worker thread of their own, as clients from outside would: on the
  // server's event loop, their fetch and JSON parsing would be counted as the server's time.
  const profiler = await startProfile('POST /api/quiz/score');
  const started = performance.now();
  const cpuBefore = { node: process.cpuUsage(), postgres: postgresCpuSeconds() };
  const { latencies, errors } = await submitAll(base, submissions);
  const seconds = (performance.now() - started) / 1000;
  const nodeCpu = process.cpuUsage(cpuBefore.node);
  const postgresCpu = postgresCpuSeconds() - cpuBefore.postgres;
  await profiler?.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  // Where a pass's machine time goes: this process (server and the students' worker) and
  // PostgreSQL's processes (0 on PGlite, which runs inside this process).
  const perPass = (cpuSeconds: number) => ((cpuSeconds * 1000) / count).toFixed(2);
  console.log(
    `  CPU per pass: this process ${perPass((nodeCpu.user + nodeCpu.system) / 1e6)} ms (${perPass(nodeCpu.system / 1e6)} ms in the kernel), PostgreSQL ${perPass(postgresCpu)} ms`,
  );
  console.log(
    `POST /api/quiz/score, a final pass (${String(count)} students, ${String(CONNECTIONS)} at a time): ${(count / seconds).toFixed(0)} passes/s, p50 ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1).toFixed(0)} ms, errors ${String(errors)}; anchor ${perSecond(bare).toFixed(0)} req/s, p99 ${String(bare.latency.p99)} ms`,
  );
}

/** Submits every final, CONNECTIONS at a time, from a worker thread (SUBMIT_ALL). */
function submitAll(base: string, submissions: { cookie: string; body: string }[]) {
  return new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    const worker = new Worker(SUBMIT_ALL, { eval: true, workerData: { base, connections: CONNECTIONS, submissions } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** The final passes' client, run in a worker thread: `connections` students submitting at a time. */
const SUBMIT_ALL = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { base, connections, submissions } = workerData;
// node:http on kept connections, one per student at a time, as autocannon does for the other
// scenarios: fetch's own work took CPU from the passes on these two shared cores (README.md,
// session 12).
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const url = new URL(base + '/api/quiz/score');
const post = (submission) =>
  new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          cookie: submission.cookie,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(submission.body),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(submission.body);
  });
const latencies = [];
let errors = 0;
let next = 0;
Promise.all(
  Array.from({ length: connections }, async () => {
    for (let index = next++; index < submissions.length; index = next++) {
      const submission = submissions[index];
      const begun = performance.now();
      const response = await post(submission);
      latencies.push(performance.now() - begun);
      if (response.status !== 200 || !response.body.includes('"status":"PASS"')) errors += 1;
    }
  }),
).then(() => {
  agent.destroy();
  parentPort.postMessage({ latencies, errors });
});
`;

/**
 * BENCH_CPU_PROFILE=file.cpuprofile (with BENCH_ONLY naming one scenario) records this process's
 * CPU profile over that scenario's run only (not the setup), to open in Chrome's DevTools.
 */
async function startProfile(scenario: string): Promise<{ stop(): Promise<void> } | undefined> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file || !scenario.includes(process.env.BENCH_ONLY ?? '')) return undefined;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

await main();
