import { and, asc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStudent, IdentityCheckState, OpenIdentityCheck, Quiz, SeatTimeStatus } from '@ts/contract';
import { auditLog, courseLocks, identityChecks, seatTimeLedger } from '../../db/schema.ts';
import { localDate } from '../../platform/clock.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { type ApiClient, apiClient, moduleIdsOf, recordChapterPassed, signedInStaff } from '../../testing/course.ts';
import { createCourt, createStaff, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { selectRows } from '../../testing/rows.ts';
import { signInStaff, signInStudent } from '../../testing/sign-in.ts';
import { currentProfileVersion } from '../../testing/rules.ts';
import { groupChecks, nextCheckAtSeconds } from './identity-schedule.ts';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
/** The Florida-style profile: a check about every 45 counted minutes, 90 seconds to answer, one retry, two misses lock for 24 hours, the second lock needs an admin. */
const STRICT = 'four-hour-identity';
const EVERY_MINUTES = 45;
const DOB = '1988-07-04';

interface Learner {
  id: number;
  lastName: string;
  dlNumber: string;
  address: string;
  courtId: number;
  courtName: string;
  client: ApiClient;
}

type ErrorBody = { error: { code: string; until?: string | null } };
type Answered = { outcome: 'passed' | 'wrong' | 'timed_out'; next: IdentityCheckState };

describe('identity checks and course locks', () => {
  let t: TestApp;
  let chapter1: number[];
  beforeAll(async () => {
    t = await buildTestApp();
    chapter1 = await moduleIdsOf(t.db, 1);
  });
  afterAll(async () => {
    await t.close();
  });

  async function learner(profile = STRICT): Promise<Learner> {
    const court = await createCourt(t.db, { rulesProfileId: profile });
    const student = await createStudent(t.db, {
      courtId: court.id,
      rulesProfileId: profile,
      rulesProfileVersion: currentProfileVersion(profile),
      dob: DOB,
      createdAt: t.clock.now(),
    });
    await markStudentPaid(t.db, student.id, t.clock.now());
    return {
      ...student,
      courtId: court.id,
      courtName: court.name,
      client: apiClient(t.app, await signInStudent(t.app, student)),
    };
  }

  /** Signs the student in again after the clock moved past their session. */
  async function resume(student: Learner): Promise<void> {
    student.client = apiClient(t.app, await signInStudent(t.app, student));
  }

  const checkUrl = (student: Learner) => `/api/students/${String(student.id)}/identity-check`;

  /** Counted seat time, written to the ledger as the seat-time service would (the ledger is the interface). */
  async function credit(student: Learner, seconds: number, moduleId = chapter1[0]!, chapterId = 1): Promise<void> {
    const now = t.clock.now();
    await t.db.insert(seatTimeLedger).values({
      studentId: student.id,
      moduleId,
      chapterId,
      heartbeatAt: now,
      creditedSeconds: seconds,
      schoolDay: localDate(now, t.config.schoolTimeZone),
    });
  }

  async function countedSeconds(student: Learner): Promise<number> {
    const [row] = await t.db
      .select({ total: sql<number>`coalesce(sum(${seatTimeLedger.creditedSeconds}), 0)`.mapWith(Number) })
      .from(seatTimeLedger)
      .where(eq(seatTimeLedger.studentId, student.id));
    return row?.total ?? 0;
  }

  function questionsOf(student: Learner) {
    return t.db
      .select()
      .from(identityChecks)
      .where(eq(identityChecks.studentId, student.id))
      .orderBy(asc(identityChecks.id));
  }

  /** The counted seconds at which the student's next check is due, computed as the schedule does. */
  async function nextPoint(student: Learner): Promise<number> {
    const groups = groupChecks(await questionsOf(student), 1);
    const latest = groups.at(-1)?.rows[0]?.countedSecondsAtAsk ?? 0;
    return nextCheckAtSeconds(student.id, EVERY_MINUTES, groups.length, latest);
  }

  /** Counts exactly enough seat time for the next check to be due. */
  async function makeDue(student: Learner): Promise<void> {
    await credit(student, (await nextPoint(student)) - (await countedSeconds(student)));
  }

  /** Mark Complete on the first module (its 12 minutes are counted): a course action through the gate. */
  function courseAction(student: Learner): Promise<LightMyRequestResponse> {
    return student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId: chapter1[0] });
  }

  async function getCheck(student: Learner): Promise<IdentityCheckState> {
    const response = await student.client.get(checkUrl(student));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IdentityCheckState>();
  }

  async function openCheck(student: Learner): Promise<OpenIdentityCheck> {
    const { check } = await getCheck(student);
    if (!check) throw new Error('no identity check is open');
    return check;
  }

  async function answer(student: Learner, check: { id: number }, text: string): Promise<Answered> {
    const response = await student.client.post(`${checkUrl(student)}/${String(check.id)}`, { answer: text });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Answered>();
  }

  /** The right answer, written the way a hurried student might: spaces, dashes, another case. */
  function rightAnswer(student: Learner, check: OpenIdentityCheck): string {
    switch (check.source) {
      case 'dob':
        return ' 07-04-1988 ';
      case 'zip':
        return '93721 ';
      case 'street_number':
        return ` no. ${/\d+/.exec(student.address)?.[0] ?? ''} `;
      case 'court':
        return student.courtName.toLowerCase();
      case 'personal':
      case 'dl_last4':
        throw new Error(`${check.source} is not asked under ${STRICT}`);
    }
  }

  /** A heartbeat from the first module: does its answer say an identity check holds the course? */
  async function heartbeatSaysHeld(student: Learner): Promise<boolean> {
    const response = await student.client.post('/api/students/heartbeat', {
      studentId: student.id,
      moduleId: chapter1[0],
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SeatTimeStatus>().identityCheckDue;
  }

  const errorCode = (response: LightMyRequestResponse) => response.json<ErrorBody>().error.code;

  /** A check asked and missed: a wrong answer, then a wrong answer to the retry. */
  async function missCheck(student: Learner): Promise<Answered> {
    await makeDue(student);
    const first = await answer(student, await openCheck(student), 'wrong answer');
    expect(first.outcome).toBe('wrong');
    expect(first.next.check).not.toBeNull();
    return answer(student, first.next.check!, 'still wrong');
  }

  it('asks nothing under the default profile, however long the student studies', async () => {
    const student = await learner('default');
    await credit(student, 10 * 3600);
    expect(await getCheck(student)).toEqual({ check: null, locked: null });
    expect((await courseAction(student)).statusCode).toBe(200);
    expect(await questionsOf(student)).toEqual([]);
    const answered = await student.client.post(`${checkUrl(student)}/1`, { answer: DOB });
    expect(answered.statusCode).toBe(404);
  });

  it('asks no check before the first scheduled moment, then holds the course until it is answered', async () => {
    const student = await learner();
    const first = await nextPoint(student);
    expect(first).toBeGreaterThanOrEqual(EVERY_MINUTES * 30);
    expect(first).toBeLessThan(EVERY_MINUTES * 90);

    await credit(student, first - 1);
    expect(await getCheck(student)).toEqual({ check: null, locked: null });
    expect((await courseAction(student)).statusCode).toBe(200);

    await credit(student, 1);
    const held = await courseAction(student);
    expect(held.statusCode).toBe(409);
    expect(errorCode(held)).toBe('IDENTITY_CHECK_PENDING');

    const check = await openCheck(student);
    expect(check).toMatchObject({ reason: 'random', seconds_left: 90, question_key: check.source });
    expect(check.expires_at).toBe(new Date(t.clock.now().getTime() + 90 * SECOND).toISOString());
    expect(['dob', 'zip', 'street_number', 'court']).toContain(check.source);
    const [row] = await questionsOf(student);
    expect(row).toMatchObject({ id: check.id, countedSecondsAtAsk: first, outcome: null });

    // Asked once: looking again shows the same question with the time it has left.
    t.clock.advance(30 * SECOND);
    expect(await openCheck(student)).toMatchObject({ id: check.id, seconds_left: 60 });
    expect(errorCode(await courseAction(student))).toBe('IDENTITY_CHECK_PENDING');

    const answered = await answer(student, check, rightAnswer(student, check));
    expect(answered).toEqual({ outcome: 'passed', next: { check: null, locked: null } });
    expect((await courseAction(student)).statusCode).toBe(200);
    expect(await getCheck(student)).toEqual({ check: null, locked: null });
  });

  it('says in the heartbeat answer when a check is due, so the module page asks at once', async () => {
    const student = await learner();
    const beat = () => heartbeatSaysHeld(student);
    await credit(student, (await nextPoint(student)) - 10);
    expect(await beat()).toBe(false);
    t.clock.advance(10 * SECOND);
    expect(await beat()).toBe(true);
    const seatTime = await student.client.get(`/api/students/${String(student.id)}/seat-time`);
    expect(seatTime.json<SeatTimeStatus>().identityCheckDue).toBe(true);

    const check = await openCheck(student);
    await answer(student, check, rightAnswer(student, check));
    expect(await beat()).toBe(false);
  });

  it('says in the heartbeat answer that a question waits, and settles one whose time ran out (a second miss locks)', async () => {
    const student = await learner();
    await missCheck(student);
    expect(await heartbeatSaysHeld(student)).toBe(false);
    await makeDue(student);
    expect(await heartbeatSaysHeld(student)).toBe(true);
    await openCheck(student);
    t.clock.advance(30 * SECOND);
    expect(await heartbeatSaysHeld(student)).toBe(true);

    // Left unanswered past its 90 seconds: the next heartbeat times it out, and the course locks.
    t.clock.advance(5 * 60 * SECOND);
    expect(await heartbeatSaysHeld(student)).toBe(true);
    expect((await questionsOf(student)).map((row) => row.outcome)).toEqual(['wrong', 'wrong', 'timed_out']);
    expect((await getCheck(student)).locked).toMatchObject({ reason: 'missed_identity_checks' });
  });

  it.each([
    ['dob', ' 07-04-1988 '],
    ['dob', 'July 4th, 1988'],
    ['zip', '93721-0001'],
    ['street_number', 'house'],
    ['court', 'typed'],
    ['court', 'chosen'],
  ] as const)('accepts a %s answer written as %j', async (source, written) => {
    const student = await learner();
    await makeDue(student);
    const asked = await openCheck(student);
    // The question's fact is chosen at random; the test sets it to the one it is about.
    await t.db.update(identityChecks).set({ source }).where(eq(identityChecks.id, asked.id));
    const check = await openCheck(student);
    expect(check.source).toBe(source);
    let text: string = written;
    if (source === 'street_number') text = `No. ${/\d+/.exec(student.address)?.[0] ?? ''}`;
    if (source === 'court') {
      expect(check.choices).toHaveLength(4);
      expect(new Set(check.choices).size).toBe(4);
      expect(check.choices).toContain(student.courtName);
      // The same four, in the same order, on every look.
      expect((await openCheck(student)).choices).toEqual(check.choices);
      text = written === 'typed' ? ` ${student.courtName.toUpperCase()}.` : student.courtName;
    } else {
      expect(check.choices).toBeUndefined();
    }
    expect((await answer(student, check, text)).outcome).toBe('passed');
  });

  it('asks another question at once after a wrong answer, and passes the check on a right one', async () => {
    const student = await learner();
    await makeDue(student);
    const check = await openCheck(student);
    const wrong = await answer(student, check, 'not my answer');
    expect(wrong.outcome).toBe('wrong');
    const retry = wrong.next.check!;
    expect(retry.id).not.toBe(check.id);
    expect(retry.source).not.toBe(check.source);
    expect(retry.seconds_left).toBe(90);
    expect(wrong.next.locked).toBeNull();
    expect(errorCode(await courseAction(student))).toBe('IDENTITY_CHECK_PENDING');

    expect((await answer(student, retry, rightAnswer(student, retry))).outcome).toBe('passed');
    expect((await courseAction(student)).statusCode).toBe(200);
    const rows = await questionsOf(student);
    expect(rows.map((row) => row.outcome)).toEqual(['wrong', 'passed']);
    // The retry belongs to the same check: the next is scheduled from when the check began.
    expect(rows[1]?.countedSecondsAtAsk).toBe(rows[0]?.countedSecondsAtAsk);
  });

  it('misses a check when the retry is wrong too; one miss does not lock the course', async () => {
    const student = await learner();
    const missed = await missCheck(student);
    expect(missed).toEqual({ outcome: 'wrong', next: { check: null, locked: null } });
    expect((await courseAction(student)).statusCode).toBe(200);
    expect(await t.db.select().from(courseLocks).where(eq(courseLocks.studentId, student.id))).toEqual([]);
  });

  it('answers an already answered question with 409, and another student cannot answer it', async () => {
    const student = await learner();
    const other = await learner();
    await makeDue(student);
    const check = await openCheck(student);
    const foreign = await other.client.post(`${checkUrl(other)}/${String(check.id)}`, { answer: DOB });
    expect(foreign.statusCode).toBe(404);
    const notOwn = await other.client.post(`${checkUrl(student)}/${String(check.id)}`, { answer: DOB });
    expect(notOwn.statusCode).toBe(403);
    await answer(student, check, rightAnswer(student, check));
    const again = await student.client.post(`${checkUrl(student)}/${String(check.id)}`, { answer: 'x' });
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('IDENTITY_CHECK_CLOSED');
  });

  it('times out a late answer, and locks the course for 24 hours after two missed checks in a row', async () => {
    const student = await learner();
    await makeDue(student);
    const check = await openCheck(student);
    t.clock.advance(91 * SECOND);
    // Right, but too late.
    expect(await answer(student, check, rightAnswer(student, check))).toEqual({
      outcome: 'timed_out',
      next: { check: null, locked: null },
    });
    expect((await courseAction(student)).statusCode).toBe(200);

    // The second is left unanswered: it times out when next looked at, by any call.
    await makeDue(student);
    await openCheck(student);
    t.clock.advance(5 * 60 * SECOND);
    const lockedAt = t.clock.now();
    const refused = await courseAction(student);
    expect(refused.statusCode).toBe(423);
    const until = new Date(lockedAt.getTime() + 24 * HOUR).toISOString();
    expect(refused.json<ErrorBody>().error).toMatchObject({ code: 'COURSE_LOCKED', until });
    expect(await getCheck(student)).toEqual({ check: null, locked: { until, reason: 'missed_identity_checks' } });
    expect((await questionsOf(student)).map((row) => row.outcome)).toEqual(['timed_out', 'timed_out']);

    // Nothing more is asked while locked, however much time is counted.
    await credit(student, 5 * 3600);
    expect((await getCheck(student)).check).toBeNull();

    t.clock.advance(24 * HOUR - SECOND);
    await resume(student);
    expect((await courseAction(student)).statusCode).toBe(423);
    t.clock.advance(SECOND);
    // Open again by itself; the time counted meanwhile makes the next check due at once.
    expect(errorCode(await courseAction(student))).toBe('IDENTITY_CHECK_PENDING');
    const next = await openCheck(student);
    expect((await answer(student, next, rightAnswer(student, next))).outcome).toBe('passed');
    expect((await courseAction(student)).statusCode).toBe(200);
  });

  it('starts the count of misses anew after a passed check', async () => {
    const student = await learner();
    await missCheck(student);
    await makeDue(student);
    const check = await openCheck(student);
    await answer(student, check, rightAnswer(student, check));
    const missed = await missCheck(student);
    expect(missed.next.locked).toBeNull();
    expect((await courseAction(student)).statusCode).toBe(200);
  });

  it('needs an admin to lift the second lock: audited, within the admin court scope, never by a clerk', async () => {
    const student = await learner();
    await missCheck(student);
    const firstLock = await missCheck(student);
    expect(firstLock.next.locked?.until).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString());
    t.clock.advance(24 * HOUR);
    await resume(student);

    // A lock starts the count anew: one more miss is not yet a lock.
    expect((await missCheck(student)).next.locked).toBeNull();
    const secondLock = await missCheck(student);
    expect(secondLock.next.locked).toEqual({ until: null, reason: 'missed_identity_checks' });
    t.clock.advance(72 * HOUR);
    await resume(student);
    const refused = await courseAction(student);
    expect(refused.statusCode).toBe(423);
    expect(refused.json<ErrorBody>().error.until).toBeNull();

    const admin = (await signedInStaff(t, 'admin')).cookie;
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${String(student.id)}`,
      headers: { cookie: admin },
    });
    const identity = detail.json<AdminStudent>().identity!;
    expect(identity.lock).toMatchObject({ until: null, reason: 'missed_identity_checks' });
    expect(identity.checks).toHaveLength(8);
    expect(identity.checks.every((check) => check.reason === 'random' && check.outcome === 'wrong')).toBe(true);

    const unlock = (cookie: string) =>
      t.app.inject({ method: 'POST', url: `/api/admin/students/${String(student.id)}/unlock`, headers: { cookie } });
    const otherCourt = await createCourt(t.db);
    const clerk = (await signedInStaff(t, 'clerk')).cookie;
    const otherCourtAdmin = (await signedInStaff(t, 'admin', otherCourt.id)).cookie;
    expect((await unlock(clerk)).statusCode).toBe(403);
    expect((await unlock(otherCourtAdmin)).statusCode).toBe(404);
    expect((await courseAction(student)).statusCode).toBe(423);

    const staffMember = await createStaff(t.db, { role: 'admin', courtId: student.courtId });
    const unlocked = await unlock(await signInStaff(t.app, staffMember));
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({ unlocked: true });
    expect((await courseAction(student)).statusCode).toBe(200);
    expect(await getCheck(student)).toEqual({ check: null, locked: null });

    const [lock] = await t.db
      .select()
      .from(courseLocks)
      .where(and(eq(courseLocks.studentId, student.id), eq(courseLocks.unlockedByStaffId, staffMember.id)));
    expect(lock).toMatchObject({ lockedUntil: null, unlockedAt: t.clock.now() });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'unlock_course'), eq(auditLog.entityId, student.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ staffId: staffMember.id, entityType: 'student' });
    expect(audit[0]?.before).toMatchObject({ lock_id: lock?.id, locked_until: null, unlocked_at: null });

    // Unlocking a course that is not locked changes nothing and records nothing.
    expect((await unlock(await signInStaff(t.app, staffMember))).statusCode).toBe(200);
    expect(
      await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'unlock_course'), eq(auditLog.entityId, student.id))),
    ).toHaveLength(1);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${String(student.id)}`,
      headers: { cookie: admin },
    });
    expect(after.json<AdminStudent>().identity?.lock).toBeNull();
  });

  it('asks a check before the final exam, once the final is otherwise open', async () => {
    const student = await learner();
    const drawFinal = () => student.client.get(`/api/quiz/finalExamQuestions/${String(student.id)}`);

    // Chapters not complete: the final is refused for that, and no question is wasted on it.
    const early = await drawFinal();
    expect(errorCode(early)).toBe('CHAPTERS_INCOMPLETE');
    expect(await questionsOf(student)).toEqual([]);

    for (const chapterId of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapterId, t.clock.now());
    await credit(student, 240 * 60);
    // The time counted made a study check due first.
    expect(errorCode(await drawFinal())).toBe('IDENTITY_CHECK_PENDING');
    const study = await openCheck(student);
    expect(study.reason).toBe('random');
    await answer(student, study, rightAnswer(student, study));

    const held = await drawFinal();
    expect(held.statusCode).toBe(409);
    expect(errorCode(held)).toBe('IDENTITY_CHECK_PENDING');
    const beforeFinal = await openCheck(student);
    expect(beforeFinal.reason).toBe('before_final');
    // Other course calls wait for it too.
    expect(errorCode(await courseAction(student))).toBe('IDENTITY_CHECK_PENDING');
    expect((await answer(student, beforeFinal, rightAnswer(student, beforeFinal))).outcome).toBe('passed');

    const drawn = await drawFinal();
    expect(drawn.statusCode, drawn.body).toBe(200);
    expect(drawn.json<Quiz>().questions).toHaveLength(40);
    expect((await drawFinal()).statusCode).toBe(200);
    expect((await questionsOf(student)).map((row) => row.reason)).toEqual(['random', 'before_final']);
  });

  it('asks the check before the final when the final is drawn through the chapter quiz call too', async () => {
    const student = await learner();
    for (const chapterId of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapterId, t.clock.now());
    await credit(student, 240 * 60);
    const drawThroughChapterCall = () => student.client.get('/api/quiz/questions/6');
    expect(errorCode(await drawThroughChapterCall())).toBe('IDENTITY_CHECK_PENDING');
    const study = await openCheck(student);
    await answer(student, study, rightAnswer(student, study));

    const held = await drawThroughChapterCall();
    expect(errorCode(held)).toBe('IDENTITY_CHECK_PENDING');
    const beforeFinal = await openCheck(student);
    expect(beforeFinal.reason).toBe('before_final');
    await answer(student, beforeFinal, rightAnswer(student, beforeFinal));
    const drawn = await drawThroughChapterCall();
    expect(drawn.statusCode, drawn.body).toBe(200);
    expect(drawn.json<Quiz>().questions).toHaveLength(40);
  });

  it('never stores what the student answered', async () => {
    const student = await learner();
    await makeDue(student);
    const check = await openCheck(student);
    const wrong = await answer(student, check, 'Zebra Crossing 4242');
    await answer(student, wrong.next.check!, 'Zebra Crossing 4242');
    const columns = await selectRows(
      t.db,
      sql`select column_name from information_schema.columns where table_name = 'identity_checks' order by column_name`,
    );
    expect(columns.map((row) => row.column_name)).toEqual([
      'answered_at',
      'asked_at',
      'counted_seconds_at_ask',
      'expires_at',
      'id',
      'outcome',
      'personal_key',
      'reason',
      'source',
      'student_id',
    ]);
    const stored = await selectRows(
      t.db,
      sql`select (select coalesce(json_agg(c), '[]') from identity_checks c where c.student_id = ${student.id}) as checks,
                 (select coalesce(json_agg(l), '[]') from course_locks l where l.student_id = ${student.id}) as locks`,
    );
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toMatch(/zebra|4242/i);
  });
});
