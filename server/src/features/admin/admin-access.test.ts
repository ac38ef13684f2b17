import { ALL_ENDPOINTS } from '@ts/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, certificateDeliveries, questions } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { onlyCertificateOf, recordCourseCompletion } from '../../testing/certificates.ts';
import {
  buildRegistration,
  createCourt,
  createStaff,
  createStudent,
  type CreatedStaff,
  type CreatedStudent,
  markStudentPaid,
} from '../../testing/factories.ts';
import { signInStaff, signInStudent, uniqueAddress } from '../../testing/sign-in.ts';

/**
 * Decision 011's table, walked cell by cell: every admin route, every kind of caller, and an
 * object (student, certificate, delivery) in each of two courts. A court-limited admin or clerk
 * must reach only their own court's records; everything else follows the role column of the record.
 */

const CALLERS = [
  'anonymous',
  'student',
  'clerk',
  'court_clerk_A',
  'court_clerk_B',
  'court_admin_A',
  'court_admin_B',
  'admin',
  'super_admin',
] as const;
type Caller = (typeof CALLERS)[number];
const COURTS = ['A', 'B'] as const;
type Court = (typeof COURTS)[number];

interface World {
  t: TestApp;
  cookies: Record<Exclude<Caller, 'anonymous'>, string>;
  staffIds: Record<Exclude<Caller, 'anonymous' | 'student'>, number>;
  courtIds: Record<Court, number>;
  students: Record<Court, CreatedStudent>;
  certificateNumbers: Record<Court, string>;
  deliveryIds: Record<Court, number>;
  questionId: number;
  answerId: number;
  /** Every answer of the question, and which is correct (for the one Save). */
  answers: { id: number; content: string }[];
  correctAnswerId: number;
  answerContent: string;
  questionContent: string;
  /** A clerk account the super_admin's account routes act on. */
  target: CreatedStaff;
}

/** What a cell expects: a status, and for lists, whether the court's record is in the answer. */
interface Outcome {
  status: number;
  visible?: boolean;
}

interface Row {
  /** The contract endpoint (or raw route) the row covers, as "METHOD /path". */
  route: string;
  request: (world: World, court: Court, caller: Caller) => InjectOptions;
  expected: (caller: Caller, court: Court) => Outcome;
  /** For list answers: is the court's record among them? */
  sees?: (body: unknown, world: World, court: Court) => boolean;
}

const isStaff = (caller: Caller) => caller !== 'anonymous' && caller !== 'student';
const isFullStaff = (caller: Caller) => caller === 'clerk' || caller === 'admin' || caller === 'super_admin';
const isClerk = (caller: Caller) => caller === 'clerk' || caller.startsWith('court_clerk_');
const coversCourt = (caller: Caller, court: Court) =>
  isFullStaff(caller) || caller === `court_admin_${court}` || caller === `court_clerk_${court}`;

/** 401 without a session, 403 for a student, else what the staff column says. */
function staffOnly(staff: (caller: Caller, court: Court) => Outcome) {
  return (caller: Caller, court: Court): Outcome => {
    if (caller === 'anonymous') return { status: 401 };
    if (caller === 'student') return { status: 403 };
    return staff(caller, court);
  };
}
const rolesMay = (allowed: Caller[], status = 200) =>
  staffOnly((caller) => ({ status: allowed.includes(caller) ? status : 403 }));
/** Any staff member, scoped to their court: a record of another court does not exist for them. */
const scopedRecord = staffOnly((caller, court) => ({ status: coversCourt(caller, court) ? 200 : 404 }));
/** Any staff member, scoped: the list answers, without the records of another court. */
const scopedList = staffOnly((caller, court) => ({ status: 200, visible: coversCourt(caller, court) }));

let usernameSequence = 0;

const ROWS: Row[] = [
  {
    route: 'GET /api/admin/stats',
    request: () => ({ method: 'GET', url: '/api/admin/stats' }),
    expected: rolesMay(['clerk', 'admin', 'super_admin']),
  },
  {
    route: 'GET /api/admin/report',
    request: () => ({ method: 'GET', url: '/api/admin/report' }),
    expected: scopedList,
    sees: (body, world, court) =>
      (body as { court_id: number; total: number }[]).some(
        (row) => row.court_id === world.courtIds[court] && row.total > 0,
      ),
  },
  {
    route: 'GET /api/admin/students',
    request: (world, court) => ({
      method: 'GET',
      url: `/api/admin/students?searchTerm=${encodeURIComponent(world.students[court].email)}`,
    }),
    expected: scopedList,
    sees: (body, world, court) =>
      (body as { rows: { id: number }[] }).rows.some((row) => row.id === world.students[court].id),
  },
  {
    route: 'GET /api/admin/students/:id',
    request: (world, court) => ({ method: 'GET', url: `/api/admin/students/${String(world.students[court].id)}` }),
    expected: scopedRecord,
  },
  {
    // Admins lift a course lock within their court scope (a student not locked: nothing to lift);
    // no clerk does, a court's own clerk included.
    route: 'POST /api/admin/students/:id/unlock',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/students/${String(world.students[court].id)}/unlock`,
    }),
    expected: staffOnly((caller, court) => {
      if (isClerk(caller)) return { status: 403 };
      return { status: coversCourt(caller, court) ? 200 : 404 };
    }),
  },
  {
    // Decision 050: admins reset a student's personal questions within their court scope; no clerk.
    route: 'POST /api/admin/students/:id/personal-questions/reset',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/students/${String(world.students[court].id)}/personal-questions/reset`,
      payload: { reason: 'The student forgot the answers.' },
    }),
    expected: staffOnly((caller, court) => {
      if (isClerk(caller)) return { status: 403 };
      return { status: coversCourt(caller, court) ? 200 : 404 };
    }),
  },
  {
    // Exceptions to a student's rules, made as a lock is lifted: admins within their
    // court scope, never a clerk.
    route: 'POST /api/admin/students/:id/exceptions',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/students/${String(world.students[court].id)}/exceptions`,
      payload: { kind: 'extend_window', days: 1, reason: 'Access table check' },
    }),
    expected: staffOnly((caller, court) => {
      if (isClerk(caller)) return { status: 403 };
      return { status: coversCourt(caller, court) ? 201 : 404 };
    }),
  },
  {
    route: 'POST /api/admin/markPaid/:studentId',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/markPaid/${String(world.students[court].id)}`,
      payload: {},
    }),
    expected: rolesMay(['super_admin']),
  },
  {
    route: 'POST /api/pdf/certificate',
    request: (world, court) => ({
      method: 'POST',
      url: '/api/pdf/certificate?noEmail=1',
      payload: { studentId: world.students[court].id, completionDate: 'January 1, 2026' },
    }),
    // The student must be visible before the role counts; a student is told another's does not exist.
    expected: (caller, court) => {
      if (caller === 'anonymous') return { status: 401 };
      if (caller === 'student') return { status: 404 };
      if (!coversCourt(caller, court)) return { status: 404 };
      return { status: caller === 'super_admin' ? 200 : 403 };
    },
  },
  {
    route: 'POST /api/admin/deliveries/:id/resend',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/deliveries/${String(world.deliveryIds[court])}/resend`,
    }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'GET /api/students/archivedata/:id',
    request: (world, court) => ({
      method: 'GET',
      url: `/api/students/archivedata/${encodeURIComponent(world.students[court].email)}`,
    }),
    expected: scopedList,
    sees: (body, world, court) =>
      (body as { email: string }[]).some((row) => row.email === world.students[court].email),
  },
  {
    route: 'GET /api/students/:id/certificate',
    request: (world, court) => ({
      method: 'GET',
      url: `/api/students/${String(world.students[court].id)}/certificate`,
    }),
    expected: (caller, court) =>
      caller === 'anonymous' ? { status: 401 } : { status: isStaff(caller) && coversCourt(caller, court) ? 200 : 404 },
  },
  {
    route: 'GET /api/students/:studentId/certificate/all',
    request: (world, court) => ({
      method: 'GET',
      url: `/api/students/${String(world.students[court].id)}/certificate/all`,
    }),
    expected: (caller, court) =>
      caller === 'anonymous' ? { status: 401 } : { status: isStaff(caller) && coversCourt(caller, court) ? 200 : 404 },
  },
  {
    // The detail page's deadline field: the student's rules, within the caller's court scope.
    route: 'GET /api/students/:id/rules',
    request: (world, court) => ({ method: 'GET', url: `/api/students/${String(world.students[court].id)}/rules` }),
    expected: (caller, court) =>
      caller === 'anonymous' ? { status: 401 } : { status: isStaff(caller) && coversCourt(caller, court) ? 200 : 404 },
  },
  {
    route: 'GET /api/certificates/:number/pdf',
    request: (world, court) => ({
      method: 'GET',
      url: `/api/certificates/${encodeURIComponent(world.certificateNumbers[court])}/pdf`,
    }),
    // Anonymous too gets 404: a certificate number must not be confirmed to a stranger (decision 016).
    expected: (caller, court) => ({ status: isStaff(caller) && coversCourt(caller, court) ? 200 : 404 }),
  },
  {
    route: 'POST /api/register/student',
    request: (world, court) => ({
      method: 'POST',
      url: '/api/register/student',
      payload: { ...buildRegistration({ court: world.courtIds[court] }), backdoor: true },
    }),
    // Without a staff session backdoor means nothing: an ordinary registration.
    expected: (caller) => ({
      status: ['anonymous', 'student', 'admin', 'super_admin'].includes(caller) ? 201 : 403,
    }),
  },
  {
    route: 'GET /api/content/questions',
    request: () => ({ method: 'GET', url: '/api/content/questions' }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'GET /api/admin/questions/:id',
    request: (world) => ({ method: 'GET', url: `/api/admin/questions/${String(world.questionId)}` }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'POST /api/admin/edit/question/:id',
    request: (world) => ({
      method: 'POST',
      url: `/api/admin/edit/question/${String(world.questionId)}`,
      payload: { content: world.questionContent },
    }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    // The question page's one Save: the question as it is, sent back unchanged.
    route: 'PUT /api/admin/questions/:id',
    request: (world) => ({
      method: 'PUT',
      url: `/api/admin/questions/${String(world.questionId)}`,
      payload: {
        content: world.questionContent,
        content_es: '',
        answers: world.answers.map((answer) => ({ id: answer.id, content: answer.content, content_es: '' })),
        correct_answer_id: world.correctAnswerId,
      },
    }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'POST /api/admin/edit/answer/:id',
    request: (world) => ({
      method: 'POST',
      url: `/api/admin/edit/answer/${String(world.answerId)}`,
      payload: { content: world.answerContent },
    }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    // Court A's cell names the caller's own account (a wrong current password: 400 once let in),
    // court B's names another member's account, which nobody may change here.
    route: 'POST /api/admin/change-password',
    request: (world, court, caller) => ({
      method: 'POST',
      url: '/api/admin/change-password',
      payload: {
        userId:
          court === 'A' && caller in world.staffIds
            ? world.staffIds[caller as keyof World['staffIds']]
            : world.target.id,
        currentPw: 'not the current password',
        newPw: 'a brand new password 1',
      },
    }),
    expected: staffOnly((_caller, court) => ({ status: court === 'A' ? 400 : 403 })),
  },
  {
    route: 'GET /api/admin/users',
    request: () => ({ method: 'GET', url: '/api/admin/users' }),
    expected: rolesMay(['super_admin']),
  },
  {
    route: 'POST /api/admin/users',
    request: () => {
      usernameSequence += 1;
      return {
        method: 'POST',
        url: '/api/admin/users',
        payload: {
          username: `matrix${String(usernameSequence)}`,
          email: `matrix${String(usernameSequence)}@school.example`,
          name: `Matrix Member ${String(usernameSequence)}`,
          role: 'clerk',
          court_id: null,
        },
      };
    },
    expected: rolesMay(['super_admin'], 201),
  },
  {
    route: 'PUT /api/admin/users/:id',
    request: (world) => ({
      method: 'PUT',
      url: `/api/admin/users/${String(world.target.id)}`,
      payload: {
        email: world.target.email,
        name: 'Target Clerk',
        role: 'clerk',
        court_id: null,
        disabled: false,
      },
    }),
    expected: rolesMay(['super_admin']),
  },
  {
    route: 'POST /api/admin/users/:id/set-password-link',
    request: (world) => ({ method: 'POST', url: `/api/admin/users/${String(world.target.id)}/set-password-link` }),
    expected: rolesMay(['super_admin']),
  },
  {
    route: 'GET /api/admin/audit',
    request: () => ({ method: 'GET', url: '/api/admin/audit' }),
    expected: rolesMay(['super_admin']),
  },
  // A court's completions: its own staff (the court's record only), admins over every
  // court (any court's); the acknowledgement is the court's alone.
  {
    route: 'GET /api/court/completions',
    request: () => ({ method: 'GET', url: '/api/court/completions' }),
    expected: staffOnly((caller, court) =>
      caller === 'clerk'
        ? { status: 403 }
        : { status: 200, visible: caller === 'admin' || caller === 'super_admin' || coversCourt(caller, court) },
    ),
    sees: (body, world, court) =>
      (body as { rows: { certificate_number: string }[] }).rows.some(
        (row) => row.certificate_number === world.certificateNumbers[court],
      ),
  },
  {
    route: 'POST /api/court/completions/:number/acknowledge',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/court/completions/${encodeURIComponent(world.certificateNumbers[court])}/acknowledge`,
    }),
    expected: staffOnly((caller, court) =>
      caller.startsWith('court_') ? { status: caller.endsWith(`_${court}`) ? 200 : 404 } : { status: 403 },
    ),
  },
  // Decision 058: admins refund a card payment within their court scope, never clerks. The matrix's
  // students paid by no card, so an allowed caller is answered 409 (nothing to refund).
  {
    route: 'POST /api/admin/students/:id/refunds',
    request: (world, court) => ({
      method: 'POST',
      url: `/api/admin/students/${String(world.students[court].id)}/refunds`,
      payload: { reason: 'Access matrix' },
    }),
    expected: staffOnly((caller, court) => {
      if (isClerk(caller)) return { status: 403 };
      return { status: coversCourt(caller, court) ? 409 : 404 };
    }),
  },
  // Admins correct a student's contact details, within their court; never clerks.
  {
    route: 'PUT /api/admin/students/:id/contact',
    request: (world, court) => ({
      method: 'PUT',
      url: `/api/admin/students/${String(world.students[court].id)}/contact`,
      payload: {
        email: world.students[court].email,
        address: '1 Main Street',
        city: 'Fresno',
        state: 'CA',
        zip: '93721',
        resend: false,
      },
    }),
    expected: staffOnly((caller, court) =>
      isClerk(caller) ? { status: 403 } : { status: coversCourt(caller, court) ? 200 : 404 },
    ),
  },
  // Corrections are decided by admins, a court's own admin for that court only; never clerks.
  {
    route: 'GET /api/admin/corrections',
    request: () => ({ method: 'GET', url: '/api/admin/corrections?status=pending' }),
    expected: staffOnly((caller) => ({ status: isClerk(caller) ? 403 : 200 })),
  },
  {
    route: 'POST /api/admin/corrections/:id/approve',
    request: () => ({ method: 'POST', url: '/api/admin/corrections/999999/approve' }),
    expected: staffOnly((caller) => ({ status: isClerk(caller) ? 403 : 404 })),
  },
  {
    route: 'POST /api/admin/corrections/:id/reject',
    request: () => ({
      method: 'POST',
      url: '/api/admin/corrections/999999/reject',
      payload: { note: 'Not on the licence' },
    }),
    expected: staffOnly((caller) => ({ status: isClerk(caller) ? 403 : 404 })),
  },
  // A state's report spans its courts: admins over every court only, never a clerk.
  {
    route: 'GET /api/admin/state-filings',
    request: () => ({ method: 'GET', url: '/api/admin/state-filings' }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'POST /api/admin/state-filings',
    request: () => ({ method: 'POST', url: '/api/admin/state-filings', payload: { state: 'WY' } }),
    expected: rolesMay(['admin', 'super_admin'], 409),
  },
  {
    route: 'GET /api/admin/state-filings/:id',
    request: () => ({ method: 'GET', url: '/api/admin/state-filings/999999' }),
    expected: rolesMay(['admin', 'super_admin'], 404),
  },
  {
    route: 'POST /api/admin/state-filings/:id/outcome',
    request: () => ({
      method: 'POST',
      url: '/api/admin/state-filings/999999/outcome',
      payload: { outcome: 'filed', confirmation_reference: 'X-1' },
    }),
    expected: rolesMay(['admin', 'super_admin'], 404),
  },
  // The email templates' preview (decision 057): the school's admins, never a clerk or a
  // court-limited admin.
  {
    route: 'GET /api/admin/emails',
    request: () => ({ method: 'GET', url: '/api/admin/emails' }),
    expected: rolesMay(['admin', 'super_admin']),
  },
  {
    route: 'GET /api/admin/emails/:name',
    request: () => ({ method: 'GET', url: '/api/admin/emails/court-receipt?language=es' }),
    expected: rolesMay(['admin', 'super_admin']),
  },
];

const CELLS = ROWS.length * CALLERS.length * COURTS.length;

async function buildWorld(t: TestApp): Promise<World> {
  const courtA = await createCourt(t.db, { email: 'clerk-a@court.example' });
  const courtB = await createCourt(t.db, { email: 'clerk-b@court.example' });
  const courtIds = { A: courtA.id, B: courtB.id };

  // One completed student per court: certificates, deliveries and report rows in both.
  const students = {} as Record<Court, CreatedStudent>;
  const certificateNumbers = {} as Record<Court, string>;
  const deliveryIds = {} as Record<Court, number>;
  for (const court of COURTS) {
    const student = await createStudent(t.db, { courtId: courtIds[court] });
    await markStudentPaid(t.db, student.id, t.clock.now());
    await recordCourseCompletion(t, student.id);
    const certificate = await onlyCertificateOf(t.db, student.id);
    const [delivery] = await t.db
      .select({ id: certificateDeliveries.id })
      .from(certificateDeliveries)
      .where(eq(certificateDeliveries.certificateId, certificate.id));
    if (!delivery) throw new Error('the completion certificate has no delivery');
    students[court] = student;
    certificateNumbers[court] = certificate.number;
    deliveryIds[court] = delivery.id;
  }

  // The student caller is a third student, owner of none of the records.
  const caller = await createStudent(t.db, { courtId: courtA.id });
  await markStudentPaid(t.db, caller.id, t.clock.now());

  const members = {
    clerk: await createStaff(t.db, { role: 'clerk' }),
    court_clerk_A: await createStaff(t.db, { role: 'clerk', courtId: courtA.id }),
    court_clerk_B: await createStaff(t.db, { role: 'clerk', courtId: courtB.id }),
    court_admin_A: await createStaff(t.db, { role: 'admin', courtId: courtA.id }),
    court_admin_B: await createStaff(t.db, { role: 'admin', courtId: courtB.id }),
    admin: await createStaff(t.db, { role: 'admin' }),
    super_admin: await createStaff(t.db, { role: 'super_admin' }),
  };
  const cookies = { student: await signInStudent(t.app, caller) } as World['cookies'];
  const staffIds = {} as World['staffIds'];
  for (const [name, member] of Object.entries(members) as [keyof typeof members, CreatedStaff][]) {
    cookies[name] = await signInStaff(t.app, member);
    staffIds[name] = member.id;
  }

  const [question] = await t.db.select().from(questions).where(eq(questions.chapterId, 1)).limit(1);
  if (!question) throw new Error('the course has no questions');
  const choices = await t.db.select().from(answers).where(eq(answers.questionId, question.id));
  const answer = choices[0];
  const correct = choices.find((choice) => choice.isCorrect);
  if (!answer || !correct) throw new Error('the question has no answers');

  return {
    t,
    cookies,
    staffIds,
    courtIds,
    students,
    certificateNumbers,
    deliveryIds,
    questionId: question.id,
    questionContent: question.question,
    answerId: answer.id,
    answerContent: answer.content,
    answers: choices.map((choice) => ({ id: choice.id, content: choice.content })),
    correctAnswerId: correct.id,
    target: await createStaff(t.db, { role: 'clerk' }),
  };
}

describe(`admin access (decision 011): ${String(ROWS.length)} routes x ${String(CALLERS.length)} callers x ${String(COURTS.length)} courts = ${String(CELLS)} cells`, () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await buildTestApp();
    world = await buildWorld(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a row for every admin endpoint of the contract', () => {
    const covered = new Set(ROWS.map((row) => row.route));
    const adminEndpoints = ALL_ENDPOINTS.filter((endpoint) => endpoint.path.startsWith('/api/admin/')).map(
      (endpoint) => `${endpoint.method} ${endpoint.path}`,
    );
    expect(adminEndpoints.length).toBeGreaterThan(10);
    expect(adminEndpoints.filter((route) => !covered.has(route))).toEqual([]);
  });

  it(`answers all ${String(CELLS)} cells as the table says`, async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const row of ROWS) {
      for (const caller of CALLERS) {
        for (const court of COURTS) {
          const options = row.request(world, court, caller);
          const response: LightMyRequestResponse = await t.app.inject({
            ...options,
            remoteAddress: uniqueAddress(),
            headers: {
              ...(options.headers ?? {}),
              ...(caller === 'anonymous' ? {} : { cookie: world.cookies[caller] }),
            },
          });
          const expected = row.expected(caller, court);
          const actual: Outcome = { status: response.statusCode };
          if (expected.visible !== undefined && response.statusCode === 200 && row.sees) {
            actual.visible = row.sees(response.json(), world, court);
          }
          if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            mismatches.push(
              `${row.route} as ${caller} on court ${court}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)} ${response.body.slice(0, 120)}`,
            );
          }
          checked += 1;
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(CELLS);
  });
});
