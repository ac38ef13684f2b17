import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { answers, chapters, courts, modules, questions, students } from './db/schema.ts';
import { type Access, listRoutePolicies } from './plugins/endpoint.ts';
import { buildTestApp, type TestApp } from './testing/build-test-app.ts';
import {
  BAD_BODIES,
  BAD_QUERIES,
  badValues,
  changedTables,
  countWrites,
  describeValue,
  type FuzzFixtures,
  type FuzzRoute,
  fuzzAddress,
  fieldsOf,
  fuzzRoutes,
  jsonBody,
  send,
  type Sent,
  urlOf,
  validLookingRequest,
  watchWrites,
  withValueAt,
} from './testing/contract-fuzz.ts';
import { createStaff, createStudent, getCourtId, markStudentPaid } from './testing/factories.ts';
import { signInStaff, signInStudent } from './testing/sign-in.ts';

/**
 * Decision 016: no request, however malformed, gets a 5xx, and a refused request changes nothing.
 * Every route under /api (each contract endpoint, found from the contract package, and the raw
 * routes listed in RAW_ROUTES) is sent bad values one field at a time, the other fields
 * valid-looking so the bad one reaches as deep as it can, and whole bad bodies and query strings;
 * each as an anonymous caller, a paid student and a super_admin. A fixed corpus of known troublemakers
 * (ids past PostgreSQL's integer, NUL, 100k-character text, wrong types, prototype keys) is
 * always sent; fast-check adds FUZZ_RUNS values per field from FUZZ_SEED.
 * A larger run: FUZZ_RUNS=200 npx vitest run server/src/contract-fuzz.test.ts
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** The time each route's walk may take: a larger FUZZ_RUNS needs more. */
const ROUTE_TIMEOUT_MS = Math.max(60_000, RUNS * 2_000);

/** The writes that can end a caller's session or enrolment (a new row ends neither). */
const CALLER_WRITES: readonly string[] = [
  'sessions update',
  'sessions delete',
  'students update',
  'students delete',
  'staff update',
  'staff delete',
];

/**
 * Refusals that write by design: a failed sign-in, a wrong current password and a registration
 * that hits an existing enrolment are counted for the guess throttle (decision 005), and such a
 * registration may be handed a reset token (decision 004).
 */
const WRITES_ON_REFUSAL: Record<string, readonly string[]> = {
  'POST /api/login/student': ['failed_guesses'],
  'POST /api/login/admin': ['failed_guesses'],
  'POST /api/admin/change-password': ['failed_guesses'],
  'POST /api/register/student': ['failed_guesses', 'reset_tokens'],
};

/** Public routes whose handler looks at who is calling (request.getAuth()): a staff backdoor, an owner's download. */
const PUBLIC_ROUTES_THAT_READ_THE_SESSION: readonly string[] = [
  'POST /api/register/student',
  'GET /api/certificates/:number/pdf',
  'GET /api/docs',
];

type CallerName = 'anonymous' | 'paid student' | 'super_admin';
const CALLERS: readonly CallerName[] = ['anonymous', 'paid student', 'super_admin'];

/**
 * Whether the route's access policy lets the caller in. A caller it turns away is still sent
 * bad values, but only a few (the refusal must come before the value is looked at); the whole
 * corpus goes to the callers it admits. A public route (or GET /api/docs, which declares none)
 * gets it from the anonymous caller, and from the signed-in ones too when it reads the session.
 */
function admits(route: FuzzRoute, access: Access | undefined, caller: CallerName): boolean {
  if (!access || access.kind === 'public') {
    return caller === 'anonymous' || PUBLIC_ROUTES_THAT_READ_THE_SESSION.includes(route.key);
  }
  if (caller === 'anonymous') return false;
  if (access.kind === 'student' || access.kind === 'paidStudent') return caller === 'paid student';
  if (access.kind === 'staff') return caller === 'super_admin' && access.roles.includes('super_admin');
  return true;
}

const routes = fuzzRoutes();

describe('every route under /api, sent bad values', () => {
  let t: TestApp;
  let stdout: MockInstance<typeof process.stdout.write>;
  /** What the app logged (LOG_LEVEL=error: only errors) since the last request began. */
  const logged: string[] = [];
  let tables: string[];
  /** The write counts as the last request left them. */
  let baseline: Map<string, string>;
  let fixtures: FuzzFixtures;
  const cookies: Record<CallerName, string | undefined> = {
    anonymous: undefined,
    'paid student': undefined,
    super_admin: undefined,
  };
  let requestNumber = 0;

  async function signInNewStudent(): Promise<void> {
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    cookies['paid student'] = await signInStudent(t.app, student);
    fixtures.studentId = student.id;
  }

  async function signInNewSuperAdmin(): Promise<void> {
    const member = await createStaff(t.db, { role: 'super_admin' });
    cookies.super_admin = await signInStaff(t.app, member);
    fixtures.superAdminId = member.id;
  }

  async function currentUser(cookie: string | undefined) {
    const response = await t.app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });
    return response.statusCode === 200
      ? response.json<{ user: { id: number; type: string; payment_at: string | null } }>().user
      : undefined;
  }

  /**
   * A call that succeeded may have ended a caller's session or enrolment (sign-out, retake,
   * reset, a fuzzed value that happened to be valid): each caller is signed in afresh when
   * they are no longer who the walk needs.
   */
  async function keepCallersSignedIn(): Promise<void> {
    let signedIn = false;
    const student = await currentUser(cookies['paid student']);
    if (student?.type !== 'student' || student.id !== fixtures.studentId || student.payment_at === null) {
      await signInNewStudent();
      signedIn = true;
    }
    const admin = await currentUser(cookies.super_admin);
    if (admin?.type !== 'super_admin' || admin.id !== fixtures.superAdminId) {
      await signInNewSuperAdmin();
      signedIn = true;
    }
    if (signedIn) await takeBaseline();
  }

  async function takeBaseline(): Promise<void> {
    baseline = await countWrites(t.db);
  }

  beforeAll(async () => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    t = await buildTestApp({ config: { LOG_LEVEL: 'error' } });
    const courtId = await getCourtId(t.db);
    const [court] = await t.db.select().from(courts).where(eq(courts.id, courtId));
    const [chapter] = await t.db.select().from(chapters).orderBy(asc(chapters.position)).limit(1);
    const [module] = await t.db.select().from(modules).where(eq(modules.chapterId, chapter!.id)).limit(1);
    const [question] = await t.db.select().from(questions).orderBy(asc(questions.id)).limit(1);
    const [answer] = await t.db.select().from(answers).where(eq(answers.questionId, question!.id)).limit(1);
    const victim = await createStaff(t.db, { role: 'clerk' });
    fixtures = {
      studentId: 0,
      superAdminId: 0,
      victimStaffId: victim.id,
      courtId,
      countyId: court!.countyId,
      chapterId: chapter!.id,
      moduleId: module!.id,
      questionId: question!.id,
      answerId: answer!.id,
    };
    await signInNewStudent();
    await signInNewSuperAdmin();
    tables = await watchWrites(t.db);
    await takeBaseline();
  });

  afterAll(async () => {
    await t.close();
    stdout.mockRestore();
  });

  /**
   * Sends one request; returns a line for the failure list when it got a 5xx, or was refused
   * (4xx) and still changed a table.
   */
  async function attempt(
    route: FuzzRoute,
    caller: CallerName,
    what: string,
    sent: Omit<Sent, 'cookie' | 'remoteAddress'>,
  ) {
    logged.length = 0;
    const response = await send(t.app, { ...sent, cookie: cookies[caller], remoteAddress: fuzzAddress() });
    const before = baseline;
    const after = await countWrites(t.db);
    baseline = after;
    const status = response.statusCode;
    let failure: string | undefined;
    if (status >= 500) {
      const log = logged.join('').trim().split('\n').filter(Boolean).map(summariseLogLine).join(' / ');
      failure = `${route.key} ${what} as ${caller}: ${String(status)} ${response.body.slice(0, 200)} | log: ${log || '(none)'}`;
    } else if (status >= 400) {
      const allowed = WRITES_ON_REFUSAL[route.key] ?? [];
      const changed = changedTables(before, after).filter((write) => !allowed.includes(write.split(' ')[0]!));
      if (changed.length > 0) {
        failure = `${route.key} ${what} as ${caller}: ${String(status)} but changed ${changed.join(', ')}`;
      }
    }
    if (status < 300 && changedTables(before, after).some((write) => CALLER_WRITES.includes(write))) {
      await keepCallersSignedIn();
    }
    return failure;
  }

  /** Every bad value of every field, whole bad bodies and query strings, from one caller. */
  async function walk(route: FuzzRoute, caller: CallerName): Promise<string[]> {
    const admitted = admits(route, listRoutePolicies(t.app).get(route.key), caller);
    const failures: string[] = [];
    const record = (failure: string | undefined) => {
      if (failure) failures.push(failure);
    };
    for (const field of fieldsOf(route)) {
      const label = `${field.location}.${field.path.join('.')}`;
      for (const value of badValues(field, `${route.key} ${label}`, { seed: SEED, runs: RUNS, admitted })) {
        requestNumber += 1;
        const request = validLookingRequest(route, fixtures, requestNumber);
        if (field.location === 'body') request.body = withValueAt(request.body, field.path, value);
        else request[field.location][String(field.path[0])] = value;
        record(
          await attempt(route, caller, `${label}=${describeValue(value)}`, {
            method: route.method,
            url: urlOf(route, request),
            payload: jsonBody(request.body),
          }),
        );
      }
    }
    const fresh = () => validLookingRequest(route, fixtures, (requestNumber += 1));
    for (const query of admitted ? BAD_QUERIES : BAD_QUERIES.slice(0, 2)) {
      const request = fresh();
      record(
        await attempt(route, caller, `query ${query}`, {
          method: route.method,
          url: urlOf(route, request, query),
          payload: jsonBody(request.body),
        }),
      );
    }
    if (route.takesBody) {
      for (const body of admitted ? BAD_BODIES : BAD_BODIES.slice(0, 3)) {
        const request = fresh();
        record(
          await attempt(route, caller, `body ${body.label}`, {
            method: route.method,
            url: urlOf(route, request),
            payload: body.payload,
            contentType: body.contentType,
          }),
        );
      }
    }
    return failures;
  }

  it('walks every route the server serves under /api, each contract endpoint and raw route listed', () => {
    const walked = new Set(routes.map((route) => route.key));
    const served = [...listRoutePolicies(t.app).keys()].filter((key) => key.split(' ')[1]?.startsWith('/api/'));
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((key) => !walked.has(key))).toEqual([]);
    for (const route of routes) {
      expect(t.app.hasRoute({ method: route.method, url: route.path }), route.key).toBe(true);
    }
  });

  it('sends every route a valid-looking request that passes validation, from each caller it admits', async () => {
    const refused: string[] = [];
    for (const route of routes) {
      for (const caller of CALLERS) {
        if (!admits(route, listRoutePolicies(t.app).get(route.key), caller)) continue;
        const request = validLookingRequest(route, fixtures, (requestNumber += 1));
        const response = await send(t.app, {
          method: route.method,
          url: urlOf(route, request),
          payload: jsonBody(request.body),
          cookie: cookies[caller],
          remoteAddress: fuzzAddress(),
        });
        if (response.statusCode === 400 && response.body.includes('VALIDATION_FAILED')) {
          refused.push(`${route.key} as ${caller}: ${response.body}`);
        }
        await keepCallersSignedIn();
      }
    }
    expect(refused).toEqual([]);
    await takeBaseline();
  });

  it('watches every table, and counts a committed write but not one rolled back', async () => {
    expect(tables).toEqual(
      expect.arrayContaining([
        'students',
        'staff',
        'payments',
        'certificates',
        'audit_log',
        'sessions',
        'quiz_attempts',
      ]),
    );
    const before = await countWrites(t.db);
    await t.db.update(courts).set({ email: 'changed@court.example' }).where(eq(courts.id, fixtures.courtId));
    await t.db
      .transaction(async (tx) => {
        await tx.update(students).set({ city: 'Nowhere' }).where(eq(students.id, fixtures.studentId));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(changedTables(before, await countWrites(t.db))).toEqual(['courts update']);
    await takeBaseline();
  });

  it.each(routes.map((route) => [route.key, route] as const))(
    '%s answers every bad value below 500, and a refusal changes nothing',
    async (_key, route) => {
      const failures: string[] = [];
      for (const caller of CALLERS) failures.push(...(await walk(route, caller)));
      expect(failures).toEqual([]);
    },
    ROUTE_TIMEOUT_MS,
  );
});

/** What a pino error line says broke: the error's type, SQL state, message and first frame of ours. */
function summariseLogLine(line: string): string {
  let entry: { msg?: string; error?: { type?: string; sqlState?: string; message?: string; stack?: string } };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return line.slice(0, 300);
  }
  const error = entry.error ?? {};
  const at = error.stack?.split('\n').find((frame) => frame.includes('/server/src/'));
  return [
    entry.msg,
    error.type,
    error.sqlState && `sqlState ${error.sqlState}`,
    error.message?.split('\n')[0]?.slice(0, 120),
    at?.trim(),
  ]
    .filter(Boolean)
    .join(', ');
}
