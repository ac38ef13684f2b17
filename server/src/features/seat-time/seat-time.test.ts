import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStudent, IdentityCheckState, RulesProfile, SeatTimeStatus } from '@ts/contract';
import { rulesProfiles, seatTimeLedger } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { type ApiClient, apiClient, moduleIdsOf, takeQuiz, signedInStaff } from '../../testing/course.ts';
import { createCourt, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';
import { answerPersonalQuestions, currentProfileVersion, PERSONAL_TEST_ANSWER } from '../../testing/rules.ts';
import { creditForGap } from './seat-time.service.ts';
import { appendOnPglite } from './heartbeat.service.ts';
import { getRulesProfile } from '../rules/rules.service.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

interface Learner {
  id: number;
  lastName: string;
  dlNumber: string;
  address: string;
  courtName: string;
  client: ApiClient;
}

describe('seat time', () => {
  let t: TestApp;
  let chapter1: number[];
  beforeAll(async () => {
    t = await buildTestApp();
    chapter1 = await moduleIdsOf(t.db, 1);
  });
  afterAll(async () => {
    await t.close();
  });

  async function learner(
    profile = 'default',
    { paid = true, version = currentProfileVersion(profile) } = {},
  ): Promise<Learner> {
    const court = await createCourt(t.db, { rulesProfileId: profile });
    const student = await createStudent(t.db, {
      courtId: court.id,
      rulesProfileId: profile,
      rulesProfileVersion: version,
    });
    if (paid) await markStudentPaid(t.db, student.id);
    const client = apiClient(t.app, await signInStudent(t.app, student));
    // The Texas-style profiles ask personal questions first (decision 050).
    if (paid && profile.startsWith('six-hour')) await answerPersonalQuestions(client, student.id);
    return { ...student, courtName: court.name, client };
  }

  /**
   * The strict profiles also ask identity checks as counted time grows (another rule, tested on
   * its own): these tests answer them correctly so that only seat time holds the student back.
   */
  async function answerIdentityChecks(student: Learner): Promise<void> {
    const url = `/api/students/${String(student.id)}/identity-check`;
    for (let asked = 0; asked < 5; asked += 1) {
      const { check } = (await student.client.get(url)).json<IdentityCheckState>();
      if (!check) return;
      const answer = {
        dob: '1988-07-04',
        zip: '93721',
        street_number: student.address,
        personal: PERSONAL_TEST_ANSWER,
        dl_last4: student.dlNumber,
        court: student.courtName,
      }[check.source];
      const answered = await student.client.post(`${url}/${String(check.id)}`, { answer });
      expect(answered.json()).toMatchObject({ outcome: 'passed' });
    }
  }

  /**
   * A course action, answering the identity checks it may be held for first (the final can be
   * held twice: for a check due at a random moment, then for the one before the final).
   */
  async function withChecksAnswered(student: Learner, action: () => Promise<LightMyRequestResponse>) {
    for (let held = 0; ; held += 1) {
      const response = await action();
      const pending =
        response.statusCode === 409 &&
        response.json<{ error: { code: string } }>().error.code === 'IDENTITY_CHECK_PENDING';
      if (!pending || held === 2) return response;
      await answerIdentityChecks(student);
    }
  }

  function heartbeat(student: Learner, moduleId: number, client = student.client): Promise<LightMyRequestResponse> {
    return client.post('/api/students/heartbeat', { studentId: student.id, moduleId });
  }

  async function beat(student: Learner, moduleId: number): Promise<SeatTimeStatus> {
    const response = await heartbeat(student, moduleId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SeatTimeStatus>();
  }

  /**
   * Active on a module: a heartbeat now, then one every `every` ms until `duration` ms have passed.
   * A check a beat says is due is answered at once, as the module page asks it at once: time
   * under an identity hold is not counted (decision 043).
   */
  async function study(student: Learner, moduleId: number, duration: number, every = 30 * SECOND) {
    let status = await beat(student, moduleId);
    for (let elapsed = 0; elapsed < duration; elapsed += every) {
      if (status.identityCheckDue) await answerIdentityChecks(student);
      t.clock.advance(Math.min(every, duration - elapsed));
      status = await beat(student, moduleId);
    }
    return status;
  }

  async function seatTime(student: Learner, query = ''): Promise<SeatTimeStatus> {
    const response = await student.client.get(`/api/students/${String(student.id)}/seat-time${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SeatTimeStatus>();
  }

  function markComplete(student: Learner, moduleId: number) {
    return withChecksAnswered(student, () =>
      student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId }),
    );
  }

  function drawQuiz(student: Learner, chapterId: number) {
    const url =
      chapterId === 6
        ? `/api/quiz/finalExamQuestions/${String(student.id)}`
        : `/api/quiz/questions/${String(chapterId)}`;
    return withChecksAnswered(student, () => student.client.get(url));
  }

  async function ledgerRows(studentId: number) {
    return t.db.select().from(seatTimeLedger).where(eq(seatTimeLedger.studentId, studentId));
  }

  const moduleOf = (index: number) => {
    const id = chapter1[index];
    if (id === undefined) throw new Error(`chapter 1 has no module ${String(index)}`);
    return id;
  };

  describe('under the default profile', () => {
    it('answers a heartbeat with required: false and writes nothing to the ledger', async () => {
      const student = await learner('default');
      const status = await beat(student, moduleOf(0));
      expect(status.required).toBe(false);
      expect(status.identityCheckDue).toBe(false);
      t.clock.advance(30 * SECOND);
      await beat(student, moduleOf(0));
      expect(await ledgerRows(student.id)).toEqual([]);
      expect((await seatTime(student, `?moduleId=${String(moduleOf(0))}`)).required).toBe(false);
    });

    it('lets Mark Complete through at once, as before', async () => {
      const student = await learner('default');
      const response = await markComplete(student, moduleOf(0));
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe('under four-hour-identity (12 minutes a module, 50 a chapter, 240 before the final)', () => {
    it('refuses Mark Complete before 12 minutes with the time still required, then allows it', async () => {
      const student = await learner('four-hour-identity');
      const early = await markComplete(student, moduleOf(0));
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({
        error: {
          code: 'SEAT_TIME_REQUIRED',
          message: 'Please spend at least 12 more minutes in this module before continuing.',
          remainingSeconds: 720,
        },
      });

      // The first heartbeat only starts the clock; each next one credits the 30 s since the last.
      const partway = await study(student, moduleOf(0), 7.5 * MINUTE);
      expect(partway.required).toBe(true);
      expect(partway.heartbeatSeconds).toBe(30);
      expect(partway.module).toEqual({
        moduleId: moduleOf(0),
        requiredSeconds: 720,
        countedSeconds: 450,
        remainingSeconds: 270,
      });
      const stillEarly = await markComplete(student, moduleOf(0));
      expect(stillEarly.json()).toMatchObject({ error: { code: 'SEAT_TIME_REQUIRED', remainingSeconds: 270 } });

      t.clock.advance(30 * SECOND);
      await beat(student, moduleOf(0));
      const done = await study(student, moduleOf(0), 4 * MINUTE);
      expect(done.module?.remainingSeconds).toBe(0);
      expect(done.module?.countedSeconds).toBe(720);
      expect((await markComplete(student, moduleOf(0))).statusCode).toBe(200);
    });

    it('counts time in a module towards that module only, and towards its chapter and the course', async () => {
      const student = await learner('four-hour-identity');
      await study(student, moduleOf(0), 3 * MINUTE);
      const status = await seatTime(student, `?moduleId=${String(moduleOf(1))}`);
      expect(status.module).toMatchObject({ moduleId: moduleOf(1), countedSeconds: 0, remainingSeconds: 720 });
      expect(status.chapter).toEqual({
        chapterId: 1,
        requiredSeconds: 3000,
        countedSeconds: 180,
        remainingSeconds: 2820,
      });
      expect(status.course).toEqual({ requiredSeconds: 14_400, countedSeconds: 180, remainingSeconds: 14_220 });
      expect(status.dailyCapSeconds).toBeNull();
      expect(status.todayCountedSeconds).toBe(180);
    });

    it('does not count a gap longer than the idle cut-off of 15 minutes', async () => {
      const student = await learner('four-hour-identity');
      await study(student, moduleOf(0), 2 * MINUTE);
      t.clock.advance(15 * MINUTE + SECOND);
      const afterIdle = await beat(student, moduleOf(0));
      expect(afterIdle.module?.countedSeconds).toBe(120);
      // The clock starts again from the heartbeat after the break.
      t.clock.advance(30 * SECOND);
      expect((await beat(student, moduleOf(0))).module?.countedSeconds).toBe(150);
      // A gap of exactly the cut-off still counts.
      t.clock.advance(15 * MINUTE);
      expect((await beat(student, moduleOf(0))).module?.countedSeconds).toBe(150 + 900);
    });

    it('keeps the counted time across sign-out and a new session', async () => {
      const student = await learner('four-hour-identity');
      await study(student, moduleOf(0), 5 * MINUTE);
      const logout = await student.client.post('/api/logout', undefined);
      expect(logout.statusCode).toBe(204);
      expect((await heartbeat(student, moduleOf(0))).statusCode).toBe(401);

      t.clock.advance(2 * 60 * MINUTE);
      const again: Learner = { ...student, client: apiClient(t.app, await signInStudent(t.app, student)) };
      const status = await seatTime(again, `?moduleId=${String(moduleOf(0))}`);
      expect(status.module?.countedSeconds).toBe(300);
      expect(status.course.countedSeconds).toBe(300);
      const resumed = await study(again, moduleOf(0), MINUTE);
      expect(resumed.module?.countedSeconds).toBe(360);
    });

    it('does not count the same time twice for two sessions sending heartbeats at the same moment', async () => {
      const student = await learner('four-hour-identity');
      const otherTab: Learner = { ...student, client: apiClient(t.app, await signInStudent(t.app, student)) };
      await Promise.all([heartbeat(student, moduleOf(0)), heartbeat(otherTab, moduleOf(1))]);
      for (let i = 0; i < 4; i += 1) {
        t.clock.advance(30 * SECOND);
        const answers = await Promise.all([heartbeat(student, moduleOf(0)), heartbeat(otherTab, moduleOf(1))]);
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      }
      const status = await seatTime(student);
      expect(status.course.countedSeconds).toBe(120);
      // The second tab's heartbeat of each moment comes under 5 seconds after the first: not written.
      const credited = (await ledgerRows(student.id)).map((row) => row.creditedSeconds);
      expect(credited).toEqual([0, 30, 30, 30, 30]);
    });

    it('counts a moment once however many tabs send a heartbeat in it at once', async () => {
      const student = await learner('four-hour-identity');
      const tabs: Learner[] = [student];
      for (let n = 0; n < 5; n += 1)
        tabs.push({ ...student, client: apiClient(t.app, await signInStudent(t.app, student)) });
      for (let moment = 0; moment < 3; moment += 1) {
        if (moment > 0) t.clock.advance(30 * SECOND);
        const answers = await Promise.all(tabs.map((tab, n) => heartbeat(tab, moduleOf(n % 2))));
        expect(answers.map((answer) => answer.statusCode)).toEqual(tabs.map(() => 200));
      }
      expect((await ledgerRows(student.id)).map((row) => row.creditedSeconds)).toEqual([0, 30, 30]);
      expect((await seatTime(student)).course.countedSeconds).toBe(60);
    });

    it("writes a heartbeat in PGlite's one statement only while the newest one is still the one its read saw", async () => {
      const student = await learner('four-hour-identity');
      await heartbeat(student, moduleOf(0));
      const [first] = await ledgerRows(student.id);
      t.clock.advance(30 * SECOND);
      const now = t.clock.now();
      const read = { studentId: student.id, moduleId: moduleOf(0), chapterId: 1, schoolDay: '2026-01-01', now };
      const seen = {
        module: 0,
        chapter: 0,
        course: 0,
        today: 0,
        courseCompleted: false,
        completedChapterIds: [],
        previousHeartbeatAt: first!.heartbeatAt,
        identity: { questions: [], locked: false, personalAnswers: 0 },
      };
      // Another tab's heartbeat is written after this one's read.
      await t.db
        .insert(seatTimeLedger)
        .values({ ...read, heartbeatAt: now, creditedSeconds: 30, schoolDay: first!.schoolDay });
      const answered = await appendOnPglite(t.db, read, seen, 30);
      expect((await ledgerRows(student.id)).map((row) => row.creditedSeconds)).toEqual([0, 30]);
      expect(answered.course).toBe(30);
      expect(answered.previousHeartbeatAt?.getTime()).toBe(now.getTime());

      t.clock.advance(30 * SECOND);
      const fresh = { ...answered, previousHeartbeatAt: now };
      const next = { ...read, now: t.clock.now() };
      expect((await appendOnPglite(t.db, next, fresh, 30)).course).toBe(60);
      expect((await ledgerRows(student.id)).map((row) => row.creditedSeconds)).toEqual([0, 30, 30]);
    });

    it('writes nothing for a heartbeat under 5 seconds after the last one, and credits the whole gap with the next', async () => {
      const student = await learner('four-hour-identity');
      await beat(student, moduleOf(0));
      for (let second = 1; second <= 9; second += 1) {
        t.clock.advance(SECOND);
        const status = await beat(student, moduleOf(0));
        expect(status.module?.countedSeconds).toBe(second < 5 ? 0 : 5);
      }
      // Heartbeats at 0 s and 5 s were written; 1-4 s and 6-9 s came under 5 s after a written one.
      expect((await ledgerRows(student.id)).map((row) => row.creditedSeconds)).toEqual([0, 5]);
      t.clock.advance(SECOND);
      expect((await beat(student, moduleOf(0))).module?.countedSeconds).toBe(10);
    });

    /**
     * A profile like four-hour-identity whose minimums the course's modules alone do not reach
     * (its own 12 minutes a module already pass 50 a chapter and 240 in all): one minute a module,
     * `chapterMinutes` a chapter, `finalMinutes` before the final. Stored as version 1 of `id`.
     */
    async function minimumsProfile(id: string, chapterMinutes: number, finalMinutes: number): Promise<string> {
      const base = await getRulesProfile(t.db, 'four-hour-identity', currentProfileVersion('four-hour-identity'));
      const profile: RulesProfile = {
        ...base,
        id,
        version: 1,
        // The shared course alone: these tests count its modules.
        edition: null,
        seatTime: {
          ...base.seatTime,
          minutesPerModule: 1,
          minutesPerChapter: chapterMinutes,
          minutesBeforeFinal: finalMinutes,
        },
      };
      await t.db.insert(rulesProfiles).values({ id, version: 1, definition: profile });
      return id;
    }

    it("refuses a chapter's quiz until the chapter's minimum is counted", async () => {
      // A minute a module, and two minutes more than that for the chapter.
      const profile = await minimumsProfile('chapter-minimum', chapter1.length + 2, 0);
      const student = await learner(profile, { version: 1 });
      for (const moduleId of chapter1) {
        await study(student, moduleId, MINUTE, MINUTE);
        expect((await markComplete(student, moduleId)).statusCode).toBe(200);
      }
      const early = await drawQuiz(student, 1);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({
        error: {
          code: 'SEAT_TIME_REQUIRED',
          message: "Please spend at least 2 more minutes in this chapter's modules before its quiz.",
          remainingSeconds: 120,
        },
      });
      expect((await seatTime(student, '?chapterId=1')).chapter?.remainingSeconds).toBe(120);

      t.clock.advance(2 * MINUTE);
      await beat(student, moduleOf(3));
      expect((await drawQuiz(student, 1)).statusCode).toBe(200);
    });

    it('counts nothing while an identity check is due and unanswered, nor the time held once it is answered (decision 043)', async () => {
      const student = await learner('four-hour-identity');
      let status = await beat(student, moduleOf(0));
      // Studied, never asking the check the beats say is due (as a script beating alone would).
      for (let beats = 0; beats < 960 && !status.identityCheckDue; beats += 1) {
        t.clock.advance(30 * SECOND);
        status = await beat(student, moduleOf(0));
      }
      expect(status.identityCheckDue).toBe(true);
      const countedAtHold = status.course.countedSeconds;

      for (let beats = 0; beats < 120; beats += 1) {
        t.clock.advance(30 * SECOND);
        status = await beat(student, moduleOf(0));
      }
      expect(status.course.countedSeconds).toBe(countedAtHold);

      await answerIdentityChecks(student);
      t.clock.advance(30 * SECOND);
      status = await beat(student, moduleOf(0));
      expect(status.identityCheckDue).toBe(false);
      expect(status.course.countedSeconds).toBe(countedAtHold + 30);
    });

    it("refuses the final until the course's minimum is counted", async () => {
      const moduleCounts = await Promise.all([1, 2, 3, 4].map(async (id) => (await moduleIdsOf(t.db, id)).length));
      // A minute a module, and the final 30 minutes past all of them.
      const studied = moduleCounts.reduce((sum, count) => sum + count, 0);
      const profile = await minimumsProfile('final-minimum', 1, studied + 30);
      const student = await learner(profile, { version: 1 });
      for (const chapterId of [1, 2, 3, 4]) {
        const moduleIds = await moduleIdsOf(t.db, chapterId);
        for (const moduleId of moduleIds) await study(student, moduleId, MINUTE, MINUTE);
        for (const moduleId of moduleIds) expect((await markComplete(student, moduleId)).statusCode).toBe(200);
        expect((await drawQuiz(student, chapterId)).statusCode).toBe(200);
        expect((await takeQuiz(student.client, t.db, student.id, chapterId, 10)).statusCode).toBe(200);
      }
      const counted = (await seatTime(student)).course.countedSeconds;
      expect(counted).toBe(studied * 60);

      const early = await drawQuiz(student, 6);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({
        error: {
          code: 'SEAT_TIME_REQUIRED',
          message: 'Please spend at least 30 more minutes in the course before the final exam.',
          remainingSeconds: 1800,
        },
      });

      const lastModule = (await moduleIdsOf(t.db, 4)).at(-1)!;
      await study(student, lastModule, 30 * MINUTE, 15 * MINUTE);
      const final = await drawQuiz(student, 6);
      expect(final.statusCode, final.body).toBe(200);
    });

    it('counts time only in a chapter the student may study', async () => {
      const student = await learner('four-hour-identity');
      const [chapter2Module] = await moduleIdsOf(t.db, 2);
      const response = await heartbeat(student, chapter2Module!);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: { code: 'CHAPTER_LOCKED' } });
      expect(await ledgerRows(student.id)).toEqual([]);
    });
  });

  describe('under six-hour-daily-cap (at most 4 hours a day, 10-minute idle cut-off)', () => {
    it('stops counting at 240 minutes for the school day and counts again the next day', async () => {
      // 08:00 in the school's time zone (America/Los_Angeles).
      t.clock.set(new Date('2026-12-01T16:00:00Z'));
      const student = await learner('six-hour-daily-cap');
      // 26 gaps of 9 minutes: 234 minutes; the next gap of 9 fills the cap with 6.
      const morning = await study(student, moduleOf(0), 26 * 9 * MINUTE, 9 * MINUTE);
      expect(morning.todayCountedSeconds).toBe(234 * 60);
      expect(morning.dailyCapSeconds).toBe(240 * 60);
      t.clock.advance(9 * MINUTE);
      const capped = await beat(student, moduleOf(0));
      expect(capped.todayCountedSeconds).toBe(240 * 60);
      expect(capped.course.countedSeconds).toBe(240 * 60);
      t.clock.advance(9 * MINUTE);
      expect((await beat(student, moduleOf(0))).course.countedSeconds).toBe(240 * 60);
      expect((await ledgerRows(student.id)).at(-1)?.creditedSeconds).toBe(0);

      // The next morning in the school's time zone, signed in again.
      t.clock.set(new Date('2026-12-02T16:00:00Z'));
      student.client = apiClient(t.app, await signInStudent(t.app, student));
      const nextDay = await study(student, moduleOf(0), 10 * MINUTE, 10 * MINUTE);
      expect(nextDay.todayCountedSeconds).toBe(600);
      expect(nextDay.course.countedSeconds).toBe(250 * 60);
      expect(nextDay.course.remainingSeconds).toBe(110 * 60);
      const days = new Set((await ledgerRows(student.id)).map((row) => row.schoolDay));
      expect(days).toEqual(new Set(['2026-12-01', '2026-12-02']));
    });
  });

  describe('the ledger', () => {
    it('refuses to change or remove a row', async () => {
      const student = await learner('four-hour-identity');
      await study(student, moduleOf(0), MINUTE);
      await expect(
        t.db.execute(sql`update seat_time_ledger set credited_seconds = 9999 where student_id = ${student.id}`),
      ).rejects.toThrow();
      await expect(t.db.execute(sql`delete from seat_time_ledger where student_id = ${student.id}`)).rejects.toThrow();
      expect((await ledgerRows(student.id)).map((row) => row.creditedSeconds)).toEqual([0, 30, 30]);
    });

    it('credits whole seconds of the clock, nothing for a first heartbeat or a gap past the cut-off', () => {
      const start = new Date('2026-12-01T16:00:00.900Z');
      expect(creditForGap(undefined, start, 15)).toBe(0);
      expect(creditForGap(start, new Date('2026-12-01T16:00:30.100Z'), 15)).toBe(30);
      expect(creditForGap(start, new Date('2026-12-01T16:15:00.900Z'), 15)).toBe(900);
      expect(creditForGap(start, new Date('2026-12-01T16:15:01.900Z'), 15)).toBe(0);
      expect(creditForGap(start, new Date('2026-12-01T15:59:00Z'), 15)).toBe(0);
    });
  });

  describe('for staff', () => {
    async function detailAsAdmin(studentId: number): Promise<AdminStudent> {
      const admin = await signedInStaff(t, 'admin');
      const response = await admin.get(`/api/admin/students/${String(studentId)}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<AdminStudent>();
    }

    it("shows an admin the time counted per chapter and in all, against the profile's minimums", async () => {
      const student = await learner('four-hour-identity');
      const start = t.clock.now();
      await study(student, moduleOf(0), 5 * MINUTE);
      await study(student, moduleOf(1), 2 * MINUTE);
      const { seat_time: seatTime } = await detailAsAdmin(student.id);
      expect(seatTime?.chapters.map((chapter) => chapter.chapter_id)).toEqual([1, 2, 3, 4]);
      expect(seatTime?.chapters[0]).toEqual({ chapter_id: 1, counted_seconds: 7 * 60, required_seconds: 50 * 60 });
      expect(seatTime?.chapters[1]).toEqual({ chapter_id: 2, counted_seconds: 0, required_seconds: 50 * 60 });
      expect(seatTime).toMatchObject({
        counted_seconds: 7 * 60,
        required_seconds: 240 * 60,
        first_activity_at: start.toISOString(),
        last_activity_at: t.clock.now().toISOString(),
      });
    });

    it('shows no study time for a student of the default profile', async () => {
      const student = await learner('default');
      await study(student, moduleOf(0), 2 * MINUTE);
      expect((await detailAsAdmin(student.id)).seat_time).toBeNull();
    });
  });

  describe('access', () => {
    it("refuses another student's seat time with 403", async () => {
      const student = await learner('four-hour-identity');
      const other = await learner('four-hour-identity');
      const beatForOther = await student.client.post('/api/students/heartbeat', {
        studentId: other.id,
        moduleId: moduleOf(0),
      });
      expect(beatForOther.statusCode).toBe(403);
      expect((await student.client.get(`/api/students/${String(other.id)}/seat-time`)).statusCode).toBe(403);
      expect(await ledgerRows(other.id)).toEqual([]);
    });

    it('asks an unpaid student to pay (402)', async () => {
      const student = await learner('four-hour-identity', { paid: false });
      expect((await heartbeat(student, moduleOf(0))).statusCode).toBe(402);
      expect((await student.client.get(`/api/students/${String(student.id)}/seat-time`)).statusCode).toBe(402);
    });

    it('answers 404 for a module that does not exist', async () => {
      const student = await learner('four-hour-identity');
      expect((await heartbeat(student, 999_999)).statusCode).toBe(404);
    });
  });
});
