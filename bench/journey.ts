/**
 * The 1,000-student journey (a speed goal in README.md; decision 029): BENCH_STUDENTS simulated
 * students (1,000 unless told), all starting at once, registration to certificate, round-robin
 * over two server instances (two real `server/src/main.ts` processes) on one PostgreSQL, with a
 * local SMTP sink receiving the certificate emails. Bounded in time; prints the errors, p50/p99
 * per call, and how long after the last pass the last of the emails arrived, and whether any
 * arrived twice.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:journey
 *
 * It makes a database of its own on that server and drops it afterwards. With
 * BENCH_JOURNEY_LOCKSTEP=1 the students take each call together and it prints each call's CPU.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { Quiz } from '@ts/contract';
import { PRODUCTION_WITHOUT_SERVICES } from '../server/src/config.ts';
import { openPostgres } from '../server/src/db/client.ts';
import { answers, courts, modules } from '../server/src/db/schema.ts';
import { BENCH_LAST_NAME, benchRegistration } from './registration.ts';
import { postgresCpuSeconds, processCpuSeconds } from './cpu.ts';
import { type Answer, HttpClient } from './http-client.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
/** The whole run, journeys and deliveries, stops after this long whatever is left. */
const LIMIT_SECONDS = Number(process.env.BENCH_JOURNEY_SECONDS ?? 900);
/**
 * BENCH_JOURNEY_RAMP_SECONDS: the students start one after another over this long instead of
 * all at once (0, as the speed goal measures it), so they are spread over the course's calls.
 */
const RAMP_SECONDS = Number(process.env.BENCH_JOURNEY_RAMP_SECONDS ?? 0);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

// ---- the SMTP sink: counts each message by its Message-ID and notes when it came --------------

interface Sink {
  url: string;
  /** The certificate emails (Message-ID `<certificate-...>`), the ones the journey waits for. */
  arrivals: Map<string, number[]>;
  /** Every other email (the payment receipts of decision 058), counted apart. */
  otherArrivals: Map<string, number[]>;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const arrivals = new Map<string, number[]>();
  const otherArrivals = new Map<string, number[]>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 20 * 1024 * 1024,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? `unknown-${String(arrivals.size)}`;
        const kind = id.startsWith('<certificate-') ? arrivals : otherArrivals;
        const seen = kind.get(id);
        if (seen) seen.push(performance.now());
        else kind.set(id, [performance.now()]);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${String(port)}?ignoreTLS=true`,
    arrivals,
    otherArrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- the two instances -------------------------------------------------------------------------

async function startInstance(
  env: Record<string, string>,
  port: number,
): Promise<{ base: string; child: ChildProcess }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-journey-'));
  // BENCH_CPU_PROFILE_DIR: each instance writes its CPU profile there when it stops.
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profiling, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${String(port)}`;
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (child.exitCode !== null) throw new Error(`instance on ${String(port)} exited with ${String(child.exitCode)}`);
    const healthy = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { base, child };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`instance on ${String(port)} did not start`);
}

// ---- one student's journey ---------------------------------------------------------------------

const timings = new Map<string, number[]>();
const failures = new Map<string, number>();
const passedAt: number[] = [];

class CallFailed extends Error {}

// One client per instance, on kept connections (http-client.ts: node:http's own work per call
// was much of the load generator's CPU, taken from the two cores the server runs on).
const clients = new Map<string, HttpClient>();

function send(
  base: string,
  path: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  let client = clients.get(base);
  if (!client) {
    const { hostname, port } = new URL(base);
    client = new HttpClient(hostname, Number(port));
    clients.set(base, client);
  }
  return client.send(method, path, headers, body);
}

/**
 * BENCH_JOURNEY_LOCKSTEP=1: every student waits for all the others before each call, so the
 * machine's CPU between two steps is that step's call alone (instances, PostgreSQL, the load
 * generator), per call. It shows what each call costs; its latencies are not the journey's.
 */
class Lockstep {
  private students: number;
  private readonly arrived: number[] = [];
  private readonly waiting: (() => void)[][] = [];
  private readonly labels: string[] = [];
  private last: { cpu: number[]; step: number } | undefined;
  readonly perCall = new Map<string, { calls: number; cpu: number[] }>();

  constructor(
    students: number,
    private readonly readCpu: () => number[],
  ) {
    this.students = students;
  }

  arrive(step: number, label: string): Promise<void> {
    this.labels[step] = label;
    this.arrived[step] = (this.arrived[step] ?? 0) + 1;
    const released = new Promise<void>((resolve) => (this.waiting[step] ??= []).push(resolve));
    this.releaseIfAllThere(step);
    return released;
  }

  /** A student who failed waits no more, nor is waited for. */
  leave(): void {
    this.students -= 1;
    for (let step = 0; step < this.arrived.length; step++) this.releaseIfAllThere(step);
  }

  /** Closes the last step (after every student's last call). */
  finish(): void {
    this.account(this.arrived.length);
  }

  private releaseIfAllThere(step: number): void {
    const waiting = this.waiting[step];
    if (!waiting?.length || (this.arrived[step] ?? 0) < this.students) return;
    this.account(step);
    for (const release of waiting.splice(0)) release();
  }

  /** The CPU since the previous step began is that step's calls'. */
  private account(step: number): void {
    const cpu = this.readCpu();
    if (this.last) {
      const label = this.labels[this.last.step] ?? '?';
      const total = this.perCall.get(label) ?? { calls: 0, cpu: cpu.map(() => 0) };
      total.calls += this.arrived[this.last.step] ?? 0;
      total.cpu = total.cpu.map((sum, index) => sum + (cpu[index] ?? 0) - (this.last?.cpu[index] ?? 0));
      this.perCall.set(label, total);
    }
    this.last = { cpu, step };
  }
}

let lockstep: Lockstep | undefined;

/** A simulated student's instance and how many calls they have made. */
interface Student {
  base: string;
  step: number;
}

async function call<T>(
  label: string,
  at: Student,
  url: string,
  options: { method?: string; cookie?: string; body?: unknown; expect?: number } = {},
): Promise<{ body: T; cookie: string | undefined }> {
  if (lockstep) await lockstep.arrive(at.step++, label);
  const started = performance.now();
  let status = 0;
  let bytes: Buffer | undefined;
  let problem = '';
  let cookie: string | undefined;
  try {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await send(
      at.base,
      url,
      options.method ?? (body === undefined ? 'GET' : 'POST'),
      {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
    );
    status = response.status;
    bytes = response.bytes;
    cookie = response.setCookie?.split(';')[0];
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const took = performance.now() - started;
  const list = timings.get(label);
  if (list) list.push(took);
  else timings.set(label, [took]);
  if (status !== (options.expect ?? 200)) {
    const key = `${label}: ${String(status)} ${(bytes?.toString() ?? problem).slice(0, 120)}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
    throw new CallFailed(key);
  }
  // Read only where the student needs it (an id, a quiz): a course page is sent to be shown, and
  // the load generator's work is taken from the same two cores as the server's.
  return {
    get body() {
      return (bytes?.length ? JSON.parse(bytes.toString()) : undefined) as T;
    },
    cookie,
  };
}

interface Course {
  courtId: number;
  modulesByChapter: Map<number, number[]>;
  correctAnswer: Map<number, number>;
}

async function journey(n: number, base: string, course: Course, tag: string): Promise<void> {
  const at: Student = { base, step: 0 };
  const registration = benchRegistration(`J${tag}${String(n).padStart(5, '0')}`, course.courtId);
  // The registration answer sets the payment cookie the card form needs (decision 048).
  const { body: registered, cookie: paymentCookie } = await call<{ studentId: number }>(
    'POST /api/register/student',
    at,
    '/api/register/student',
    {
      expect: 201,
      body: registration,
    },
  );
  const studentId = registered.studentId;
  const { body: intent } = await call<{ clientSecret: string; paymentIntentId: string }>(
    'POST /api/public/payment/intent',
    at,
    '/api/public/payment/intent',
    { body: { studentId }, cookie: paymentCookie },
  );
  await call(
    'POST /api/test-provider/payment_intents/:id/confirm',
    at,
    `/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`,
    {
      body: { client_secret: intent.clientSecret, card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
    },
  );
  await call('POST /api/public/payment/mark-paid', at, '/api/public/payment/mark-paid', {
    body: { paymentIntent: intent.paymentIntentId },
  });
  const { cookie } = await call('POST /api/login/student', at, '/api/login/student', {
    body: { last_name: BENCH_LAST_NAME, dl_number: registration.dl_number },
  });
  if (!cookie) throw new CallFailed('no session cookie');
  const as = { cookie };
  await call('GET /api/me', at, '/api/me', as);
  await call('GET /api/content/chapters', at, '/api/content/chapters', as);
  for (const chapter of [1, 2, 3, 4, 6]) {
    await call(
      'GET /api/students/:id/completedChapters',
      at,
      `/api/students/${String(studentId)}/completedChapters`,
      as,
    );
    if (chapter !== 6) {
      await call(
        'GET /api/content/modules/:chapterId',
        at,
        `/api/content/modules/${String(chapter)}?userId=${String(studentId)}`,
        as,
      );
      for (const moduleId of course.modulesByChapter.get(chapter) ?? []) {
        await call('POST /api/students/moduleComplete', at, '/api/students/moduleComplete', {
          ...as,
          body: { studentId, moduleId },
        });
      }
    }
    const [label, url] =
      chapter === 6
        ? ['GET /api/quiz/finalExamQuestions/:studentId', `/api/quiz/finalExamQuestions/${String(studentId)}`]
        : ['GET /api/quiz/questions/:chapterId', `/api/quiz/questions/${String(chapter)}`];
    const { body: quiz } = await call<Quiz>(label, at, url, as);
    // The final's pass issues the certificate in its grading statement: timed apart from the chapters'.
    const scoreLabel = chapter === 6 ? 'POST /api/quiz/score (the final)' : 'POST /api/quiz/score';
    const { body: result } = await call<{ status: string }>(scoreLabel, at, '/api/quiz/score', {
      ...as,
      body: {
        studentId,
        chapter,
        attemptId: quiz.attemptId,
        questions: quiz.questions.map((question) => ({
          question: question.id,
          answer: course.correctAnswer.get(question.id),
        })),
      },
    });
    if (result.status !== 'PASS') throw new CallFailed(`chapter ${String(chapter)} not passed`);
  }
  passedAt.push(performance.now());
  await call('GET /api/students/:id/certificate', at, `/api/students/${String(studentId)}/certificate`, as);
}

// ---- the run -------------------------------------------------------------------------------------

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('the journey runs on PostgreSQL: set BENCH_DATABASE_URL');
  const name = `ts_journey_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.db.execute(`create database ${name}`);
  const databaseUrl = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  const sink = await startSink();
  const env = {
    ...PRODUCTION_WITHOUT_SERVICES,
    DATABASE_URL: databaseUrl,
    SMTP_URL: sink.url,
    PUBLIC_URL: 'http://localhost:3000',
  };
  const instances: { base: string; child: ChildProcess }[] = [];
  const database = openPostgres(databaseUrl, { max: 2 });
  try {
    // One after the other: the first migrates and loads the course, the second finds it done.
    instances.push(await startInstance(env, 3201));
    instances.push(await startInstance(env, 3202));

    const [court] = await database.db
      .select({ id: courts.id })
      .from(courts)
      .where(and(eq(courts.rulesProfileId, 'default'), isNotNull(courts.email)))
      .limit(1);
    if (!court) throw new Error('no court with an email under the default profile');
    // The default profile names no state edition: its students study the shared course's modules.
    const moduleRows = await database.db
      .select({ id: modules.id, chapterId: modules.chapterId })
      .from(modules)
      .where(isNull(modules.edition));
    const modulesByChapter = new Map<number, number[]>();
    for (const row of moduleRows)
      modulesByChapter.set(row.chapterId, [...(modulesByChapter.get(row.chapterId) ?? []), row.id]);
    // The load generator knows the answer key, as a student who studied would.
    const key = await database.db
      .select({ id: answers.id, questionId: answers.questionId })
      .from(answers)
      .where(eq(answers.isCorrect, true));
    const course: Course = {
      courtId: court.id,
      modulesByChapter,
      correctAnswer: new Map(key.map((row) => [row.questionId, row.id])),
    };

    console.log(
      `${String(STUDENTS)} students, ${RAMP_SECONDS > 0 ? `starting over ${String(RAMP_SECONDS)} s` : 'all at once'}, round-robin over ${instances.map((i) => i.base).join(' and ')}; limit ${String(LIMIT_SECONDS)} s`,
    );
    const deadline = performance.now() + LIMIT_SECONDS * 1000;
    // CPU seconds used so far: each instance, PostgreSQL, and this process (the load generator).
    const readCpu = () => {
      const generator = process.cpuUsage();
      return {
        instances: instances.map((instance) => processCpuSeconds(instance.child.pid)),
        postgres: postgresCpuSeconds(),
        generator: (generator.user + generator.system) / 1e6,
      };
    };
    const cpuBefore = readCpu();
    const started = performance.now();
    const tag = randomBytes(2).toString('hex').toUpperCase();
    if (process.env.BENCH_JOURNEY_LOCKSTEP === '1') {
      lockstep = new Lockstep(STUDENTS, () => {
        const cpu = readCpu();
        return [cpu.instances.reduce((sum, seconds) => sum + seconds, 0), cpu.postgres, cpu.generator];
      });
    }
    const outcomes = await Promise.allSettled(
      Array.from({ length: STUDENTS }, async (_, n) => {
        if (RAMP_SECONDS > 0) await new Promise((resolve) => setTimeout(resolve, (n * RAMP_SECONDS * 1000) / STUDENTS));
        return journey(n, instances[n % instances.length]!.base, course, tag).catch((error: unknown) => {
          lockstep?.leave();
          throw error;
        });
      }),
    );
    lockstep?.finish();
    const journeySeconds = (performance.now() - started) / 1000;
    const cpuAfter = readCpu();
    const instancesCpu = cpuAfter.instances.map((seconds, index) => seconds - (cpuBefore.instances[index] ?? 0));
    const postgresCpu = cpuAfter.postgres - cpuBefore.postgres;
    const generatorCpu = cpuAfter.generator - cpuBefore.generator;
    const finished = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;

    // Deliveries: every passed student's email and their court's, each exactly once.
    const expected = passedAt.length * 2;
    const lastPass = Math.max(...passedAt);
    while (sink.arrivals.size < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const times = [...sink.arrivals.values()].flat();
    const duplicates = [...sink.arrivals.values()].filter((seen) => seen.length > 1).length;
    const lastMail = times.length ? Math.max(...times) : lastPass;
    // Emails sent while students were still passing: the delivery worker's rendering then took
    // the cores from the journey's calls (it should wait while the instances are busy).
    const beforeLastPass = times.filter((time) => time <= lastPass).length;

    const requests = [...timings.values()].reduce((sum, list) => sum + list.length, 0);
    const all = [...timings.values()].flat().sort((a, b) => a - b);
    console.log(
      `\n${String(finished)} of ${String(STUDENTS)} finished in ${journeySeconds.toFixed(1)} s: ${String(requests)} requests (${(requests / journeySeconds).toFixed(0)} req/s), p50 ${percentile(all, 0.5).toFixed(0)} ms, p99 ${percentile(all, 0.99).toFixed(0)} ms`,
    );
    // Where the two shared cores went during the journeys, per request.
    const perRequest = (seconds: number) => ((seconds * 1000) / requests).toFixed(2);
    console.log(
      `CPU per request: instances ${instancesCpu.map(perRequest).join(' and ')} ms, PostgreSQL ${perRequest(postgresCpu)} ms, the load generator ${perRequest(generatorCpu)} ms`,
    );
    console.log('\n| call | requests | p50 ms | p99 ms |\n|---|---|---|---|');
    for (const [label, list] of [...timings].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...list].sort((a, b) => a - b);
      console.log(
        `| \`${label}\` | ${String(list.length)} | ${percentile(sorted, 0.5).toFixed(0)} | ${percentile(sorted, 0.99).toFixed(0)} |`,
      );
    }
    if (lockstep) {
      console.log(
        '\nCPU per call, the students in lockstep (ms): | call | calls | instances | PostgreSQL | generator | all |',
      );
      for (const [label, { calls, cpu }] of lockstep.perCall) {
        const [instancesMs, postgresMs, generatorMs] = cpu.map((seconds) => (seconds * 1000) / calls) as [
          number,
          number,
          number,
        ];
        console.log(
          `| \`${label}\` | ${String(calls)} | ${instancesMs.toFixed(2)} | ${postgresMs.toFixed(2)} | ${generatorMs.toFixed(2)} | ${(instancesMs + postgresMs + generatorMs).toFixed(2)} |`,
        );
      }
    }
    console.log(`\nerrors: ${String([...failures.values()].reduce((a, b) => a + b, 0))}`);
    for (const [message, count] of failures) console.log(`  ${String(count)} x ${message}`);
    console.log(
      `certificate emails: ${String(sink.arrivals.size)} of ${String(expected)} distinct, ${String(duplicates)} sent twice; ${String(beforeLastPass)} before the last pass, the last ${((lastMail - lastPass) / 1000).toFixed(1)} s after it`,
    );
    const otherTwice = [...sink.otherArrivals.values()].filter((seen) => seen.length > 1).length;
    console.log(
      `other emails (payment receipts): ${String(sink.otherArrivals.size)} distinct, ${String(otherTwice)} sent twice`,
    );
  } finally {
    for (const client of clients.values()) client.close();
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => new Promise((resolve) => instance.child.once('exit', resolve))));
    await database.close();
    await sink.close();
    await admin.db.execute(`drop database if exists ${name} with (force)`);
    await admin.close();
  }
}

await main();
process.exit(0);
