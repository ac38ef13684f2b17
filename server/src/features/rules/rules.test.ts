import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStudent, Quiz, QuizResult, RulesException, RulesProfile, StudentRules } from '@ts/contract';
import {
  auditLog,
  certificateDeliveries,
  quizAttempts,
  rulesExceptions,
  rulesProfiles,
  students,
} from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { onlyCertificateOf, recordCourseCompletion } from '../../testing/certificates.ts';
import {
  type ApiClient,
  answersFor,
  apiClient,
  completeModulesOf,
  moduleIdsOf,
  passChapter,
  recordChapterPassed,
  signedInStaff,
} from '../../testing/course.ts';
import { buildRegistration, createCourt, createStaff, createStudent } from '../../testing/factories.ts';
import {
  createRulesStudent,
  currentProfileVersion,
  type RulesStudent,
  satisfySeatTimeAndIdentity,
  signInAgain,
} from '../../testing/rules.ts';
import { signInStaff } from '../../testing/sign-in.ts';
import { DEFAULT_RULES_PROFILE } from '../certificates/certificate-snapshot.ts';
import { getRulesProfile } from './rules.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Drawing a quiz (1-4) or the final (6), as the quiz page does. */
function draw(student: RulesStudent, chapterId: number) {
  return student.client.get(
    chapterId === 6 ? `/api/quiz/finalExamQuestions/${String(student.id)}` : `/api/quiz/questions/${String(chapterId)}`,
  );
}

async function drawQuiz(student: RulesStudent, chapterId: number): Promise<Quiz> {
  const response = await draw(student, chapterId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Quiz>();
}

describe('course rules per profile (decision 012)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Submits a drawn quiz with `correct` right answers. */
  async function submit(student: RulesStudent, quiz: Quiz, correct: number): Promise<QuizResult> {
    const response = await student.client.post('/api/quiz/score', {
      studentId: student.id,
      chapter: quiz.chapter,
      attemptId: quiz.attemptId,
      questions: await answersFor(t.db, quiz, correct),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<QuizResult>();
  }

  async function rulesOf(student: RulesStudent): Promise<StudentRules> {
    const response = await student.client.get(`/api/students/${String(student.id)}/rules`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StudentRules>();
  }

  /** Chapters passed as the database records them; these tests are about the final. */
  async function passChapters(student: RulesStudent, chapters: number[]) {
    for (const chapter of chapters) await recordChapterPassed(t.db, student.id, chapter, t.clock.now());
  }

  /** Chapters 1-4 passed, then both of four-hour-identity's final attempts failed, a day apart. */
  async function failBothFinalAttempts(student: RulesStudent) {
    await passChapters(student, [1, 2, 3, 4]);
    await submit(student, await drawQuiz(student, 6), 10);
    t.clock.advance(DAY);
    await signInAgain(t, student);
    await submit(student, await drawQuiz(student, 6), 10);
  }

  describe('the default profile: the spec exactly', () => {
    it('answers the spec’s rules: 10 passed at 7, 20 at 14, unlimited retakes, no deadline', async () => {
      const student = await createRulesStudent(t, 'default');
      expect(await rulesOf(student)).toEqual({
        profile: { id: 'default', version: 1, name: 'Standard course' },
        seatTime: {
          minutesPerModule: 0,
          minutesPerChapter: 0,
          minutesBeforeFinal: 0,
          idleCutoffMinutes: 15,
          dailyCapMinutes: null,
        },
        identityChecks: { enabled: false, answerSeconds: 90 },
        quizzes: {
          chapter: { questions: 10, passMark: 7, attempts: null, waitMinutes: 0 },
          final: { questions: 20, passMark: 14, attempts: null, waitMinutes: 0 },
        },
        windowDays: null,
        deadline: null,
        deadlineWarning: false,
        closedOn: null,
        extraAttempts: [],
        certificateRouting: 'student_and_court',
        courtHasEmail: true,
      });
    });

    it('draws 10 passed at 7 with the spec’s instruction, and lets a student retake at once as often as needed', async () => {
      const fresh = await createRulesStudent(t, 'default');
      await completeModulesOf(fresh.client, t.db, fresh.id, 1);
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const drawn = await drawQuiz(fresh, 1);
        expect(drawn).toMatchObject({ passMark: 7, questionCount: 10, attemptsAllowed: null, specRules: true });
        expect((await submit(fresh, drawn, 6)).status).toBe('FAIL');
      }
      expect((await submit(fresh, await drawQuiz(fresh, 1), 7)).status).toBe('PASS');
    });

    it('draws a final of 20 passed at 14 and emails the certificate to the student and the court', async () => {
      t.clock.set(new Date('2026-11-22T15:00:00Z'));
      const student = await createRulesStudent(t, 'default');
      await passChapters(student, [1, 2, 3, 4]);
      const final = await drawQuiz(student, 6);
      expect(final).toMatchObject({ passMark: 14, questionCount: 20, attemptsAllowed: null, specRules: true });
      expect((await submit(student, final, 13)).status).toBe('FAIL');
      expect((await submit(student, await drawQuiz(student, 6), 14)).status).toBe('PASS');

      const certificate = await onlyCertificateOf(t.db, student.id);
      expect(certificate).toMatchObject({
        routing: 'student_and_court',
        rulesProfileId: 'default',
        rulesProfileVersion: 1,
        retainUntil: '2029-11-22',
      });
      expect((certificate.snapshot as { rulesProfile: string }).rulesProfile).toBe(DEFAULT_RULES_PROFILE);
      const deliveries = await t.db
        .select({ recipient: certificateDeliveries.recipient })
        .from(certificateDeliveries)
        .where(eq(certificateDeliveries.certificateId, certificate.id));
      expect(deliveries.map((delivery) => delivery.recipient).sort()).toEqual(['court', 'student']);
    });
  });

  describe('california-tvs-exam: a final of 25 passed at 18, two attempts, the second on different questions', () => {
    it('fails 17 of 25, draws a second form sharing no question with the first, passes it at 18', async () => {
      const student = await createRulesStudent(t, 'california-tvs-exam');
      await passChapters(student, [1, 2, 3, 4]);
      const first = await drawQuiz(student, 6);
      expect(first).toMatchObject({ passMark: 18, questionCount: 25, attemptsAllowed: 2 });
      expect(first.questions).toHaveLength(25);
      expect(await submit(student, first, 17)).toMatchObject({ status: 'FAIL', score: 17, total: 25 });

      const second = await drawQuiz(student, 6);
      const firstForm = new Set(first.questions.map((question) => question.id));
      expect(second.questions).toHaveLength(25);
      expect(second.questions.filter((question) => firstForm.has(question.id))).toEqual([]);
      expect(await submit(student, second, 18)).toMatchObject({ status: 'PASS', score: 18, total: 25 });
    });

    it('refuses a third attempt after two failed ones', async () => {
      const student = await createRulesStudent(t, 'california-tvs-exam');
      await passChapters(student, [1, 2, 3, 4]);
      await submit(student, await drawQuiz(student, 6), 0);
      await submit(student, await drawQuiz(student, 6), 0);
      const third = await draw(student, 6);
      expect(third.statusCode).toBe(409);
      expect(third.json().error.code).toBe('NO_ATTEMPTS_LEFT');
    });
  });

  describe("four-hour-identity: Florida's final of 40 passed at 32, two attempts a day apart", () => {
    it('fails 31 of 40 and passes 32 of 40, telling the page its numbers', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await passChapters(student, [1, 2, 3, 4]);
      const final = await drawQuiz(student, 6);
      expect(final).toMatchObject({ passMark: 32, questionCount: 40, attemptsAllowed: 2, specRules: false });
      expect(final.questions).toHaveLength(40);
      const failed = await submit(student, final, 31);
      expect(failed).toMatchObject({ status: 'FAIL', score: 31, total: 40 });

      t.clock.advance(DAY);
      await signInAgain(t, student);
      expect(await submit(student, await drawQuiz(student, 6), 32)).toMatchObject({ status: 'PASS', score: 32 });
    });

    it('refuses a retake within 24 hours of a failed attempt, saying when it opens, and allows it after', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await passChapters(student, [1, 2, 3, 4]);
      await submit(student, await drawQuiz(student, 6), 0);
      const failedAt = t.clock.now();

      const early = await draw(student, 6);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual({
        error: {
          code: 'ATTEMPT_WAIT',
          message: 'You can take this exam again in 24 hours.',
          opens_at: new Date(failedAt.getTime() + DAY).toISOString(),
          requestId: expect.any(String) as string,
        },
      });

      t.clock.advance(DAY - MINUTE);
      await signInAgain(t, student);
      const stillEarly = await draw(student, 6);
      expect(stillEarly.statusCode).toBe(409);
      expect(stillEarly.json()).toMatchObject({
        error: { code: 'ATTEMPT_WAIT', message: expect.stringContaining('in 1 minute.') },
      });

      t.clock.advance(MINUTE);
      expect((await draw(student, 6)).statusCode).toBe(200);
    });

    it('refuses a third attempt after two failed ones with NO_ATTEMPTS_LEFT, however long the student waits', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await failBothFinalAttempts(student);

      t.clock.advance(3 * DAY);
      await signInAgain(t, student);
      const third = await draw(student, 6);
      expect(third.statusCode).toBe(409);
      expect(third.json()).toEqual({
        error: {
          code: 'NO_ATTEMPTS_LEFT',
          message: 'You have used all 2 attempts allowed for this exam. Please contact the school.',
          attempts: 2,
          requestId: expect.any(String) as string,
        },
      });
      const attempts = await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, student.id));
      expect(attempts.filter((attempt) => attempt.chapterId === 6)).toHaveLength(2);
    });

    it('draws a retake of the final from questions the failed attempt did not use', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await passChapters(student, [1, 2, 3, 4]);
      const first = await drawQuiz(student, 6);
      await submit(student, first, 0);
      t.clock.advance(DAY);
      await signInAgain(t, student);
      const retake = await drawQuiz(student, 6);
      const firstIds = new Set(first.questions.map((question) => question.id));
      expect(retake.questions.filter((question) => firstIds.has(question.id))).toEqual([]);
    });

    it('records the profile and its version on every attempt', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await passChapter(student.client, t.db, student.id, 1);
      const rows = await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, student.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ rulesProfileId: 'four-hour-identity', rulesProfileVersion: 4 });
    });
  });

  describe('six-hour-daily-cap: chapter quizzes passed at 8, 15 minutes between attempts', () => {
    it('fails 7 of 10, passes 8 of 10, and makes the student wait 15 minutes after a fail', async () => {
      const student = await createRulesStudent(t, 'six-hour-daily-cap');
      await completeModulesOf(student.client, t.db, student.id, 1);
      const first = await drawQuiz(student, 1);
      expect(first).toMatchObject({ passMark: 8, questionCount: 10, attemptsAllowed: null, specRules: false });
      expect((await submit(student, first, 7)).status).toBe('FAIL');

      t.clock.advance(14 * MINUTE);
      const early = await draw(student, 1);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({
        error: { code: 'ATTEMPT_WAIT', message: 'You can take this quiz again in 1 minute.' },
      });

      t.clock.advance(MINUTE);
      const retake = await drawQuiz(student, 1);
      const firstIds = new Set(first.questions.map((question) => question.id));
      expect(retake.questions.filter((question) => firstIds.has(question.id))).toEqual([]);
      expect((await submit(student, retake, 8)).status).toBe('PASS');
    });

    it('holds the certificate for the state report: no court email, kept five years', async () => {
      t.clock.set(new Date('2026-11-22T15:00:00Z'));
      const student = await createRulesStudent(t, 'six-hour-daily-cap');
      await recordCourseCompletion(t, student.id);
      const certificate = await onlyCertificateOf(t.db, student.id);
      expect(certificate).toMatchObject({
        routing: 'held_for_state_report',
        rulesProfileId: 'six-hour-daily-cap',
        rulesProfileVersion: 3,
        retainUntil: '2031-11-22',
      });
      expect((certificate.snapshot as { rulesProfile: string }).rulesProfile).toBe(
        '6-hour course, 4 hours a day (version 3)',
      );
      // The score page tells the student where the certificate goes.
      expect(await rulesOf(student)).toMatchObject({ certificateRouting: 'held_for_state_report' });
      const deliveries = await t.db
        .select({ recipient: certificateDeliveries.recipient })
        .from(certificateDeliveries)
        .where(eq(certificateDeliveries.certificateId, certificate.id));
      expect(deliveries.map((delivery) => delivery.recipient)).toEqual(['student']);
    });
  });

  describe('the completion window and the court due date', () => {
    // Registered on December 1 (10 am in Los Angeles): a 60-day window ends on January 30.
    const REGISTERED = new Date('2026-12-01T18:00:00Z');

    it('warns from 10 days before the 60th day and closes the course once that day has ended', async () => {
      t.clock.set(REGISTERED);
      const student = await createRulesStudent(t, 'four-hour-identity');
      expect(await rulesOf(student)).toMatchObject({ deadline: '2027-01-30', deadlineWarning: false, closedOn: null });

      t.clock.set(new Date('2027-01-20T07:59:00Z')); // 11:59 pm on January 19 in Los Angeles
      await signInAgain(t, student);
      expect((await rulesOf(student)).deadlineWarning).toBe(false);
      t.clock.set(new Date('2027-01-20T08:00:00Z')); // midnight, January 20
      expect((await rulesOf(student)).deadlineWarning).toBe(true);

      t.clock.set(new Date('2027-01-31T07:59:00Z')); // 11:59 pm on January 30: still open
      await signInAgain(t, student);
      const [moduleId] = await moduleIdsOf(t.db, 1);
      const lastDay = await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
      expect(lastDay.statusCode, lastDay.body).toBe(200);

      t.clock.set(new Date('2027-01-31T08:00:00Z')); // midnight, January 31
      const closed = await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toEqual({
        error: {
          code: 'COMPLETION_WINDOW_CLOSED',
          message: 'The time allowed to complete this course ended on January 30, 2027. Please contact the school.',
          ended_on: '2027-01-30',
          requestId: expect.any(String) as string,
        },
      });
      expect((await draw(student, 1)).statusCode).toBe(403);
      expect(await rulesOf(student)).toMatchObject({
        deadline: '2027-01-30',
        deadlineWarning: true,
        closedOn: '2027-01-30',
      });
    });

    it('stores the court due date from registration and shows it as the deadline when it is earlier', async () => {
      t.clock.set(REGISTERED);
      const court = await createCourt(t.db, { rulesProfileId: 'four-hour-identity' });
      const registration = buildRegistration({ court: court.id, court_due_date: '01/05/2027' });
      const response = await t.app.inject({ method: 'POST', url: '/api/register/student', payload: registration });
      expect(response.statusCode, response.body).toBe(201);
      const { studentId } = response.json<{ studentId: number }>();
      const [row] = await t.db.select().from(students).where(eq(students.id, studentId));
      expect(row).toMatchObject({ courtDueDate: '2027-01-05', rulesProfileId: 'four-hour-identity' });

      const student = {
        id: studentId,
        lastName: registration.last_name,
        dlNumber: registration.dl_number.toUpperCase(),
        email: registration.email,
        address: registration.address,
        courtId: court.id,
        client: apiClient(t.app, ''),
      };
      await signInAgain(t, student);
      expect(await rulesOf(student)).toMatchObject({ deadline: '2027-01-05', deadlineWarning: false, closedOn: null });
      t.clock.set(new Date('2026-12-26T18:00:00Z'));
      await signInAgain(t, student);
      expect((await rulesOf(student)).deadlineWarning).toBe(true);
    });

    it('warns of a court due date under the default profile but never closes the course for it', async () => {
      t.clock.set(REGISTERED);
      const student = await createRulesStudent(t, 'default', { courtDueDate: '2026-12-20' });
      expect(await rulesOf(student)).toMatchObject({ deadline: '2026-12-20', deadlineWarning: false, closedOn: null });
      t.clock.set(new Date('2026-12-13T18:00:00Z'));
      await signInAgain(t, student);
      expect((await rulesOf(student)).deadlineWarning).toBe(true);

      t.clock.set(new Date('2027-03-01T18:00:00Z'));
      await signInAgain(t, student);
      expect(await rulesOf(student)).toMatchObject({ deadline: '2026-12-20', deadlineWarning: true, closedOn: null });
      const [moduleId] = await moduleIdsOf(t.db, 1);
      const late = await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
      expect(late.statusCode).toBe(200);
    });

    it('refuses a court due date that is not a real date or is in the past, and takes a blank one as none', async () => {
      t.clock.set(REGISTERED);
      const register = (courtDueDate: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/register/student',
          payload: buildRegistration({ court_due_date: courtDueDate }),
        });
      for (const invalid of ['02/30/2027', '13/01/2027', '11/30/2026']) {
        const response = await register(invalid);
        expect(response.statusCode, invalid).toBe(400);
        expect(response.json().error.message).toBe('The court due date is not a valid date.');
      }
      // The day of registration itself is not in the past.
      expect((await register('12/01/2026')).statusCode).toBe(201);
      const blank = await register('');
      expect(blank.statusCode).toBe(201);
      const [row] = await t.db
        .select({ courtDueDate: students.courtDueDate })
        .from(students)
        .where(eq(students.id, blank.json<{ studentId: number }>().studentId));
      expect(row?.courtDueDate).toBeNull();
    });
  });

  describe('exceptions staff make, on the record', () => {
    const grant = (client: ApiClient, studentId: number, body: Record<string, unknown>) =>
      client.post(`/api/admin/students/${String(studentId)}/exceptions`, body);

    it('gives a student out of final attempts one more when an admin grants it with a reason, audited', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      await failBothFinalAttempts(student);
      t.clock.advance(DAY);
      await signInAgain(t, student);
      expect((await draw(student, 6)).json()).toMatchObject({ error: { code: 'NO_ATTEMPTS_LEFT' } });

      const admin = await signedInStaff(t, 'admin');
      const granted = await grant(admin, student.id, {
        kind: 'extra_attempt',
        chapter: 6,
        reason: 'Power cut during attempt 2',
      });
      expect(granted.statusCode, granted.body).toBe(201);
      expect(granted.json()).toEqual([
        expect.objectContaining({
          kind: 'extra_attempt',
          chapter: 6,
          days: null,
          reason: 'Power cut during attempt 2',
        }),
      ]);

      // The student's rules say it, so the home page can.
      expect((await rulesOf(student)).extraAttempts).toEqual([{ chapter: 6, attempts: 1 }]);
      const third = await drawQuiz(student, 6);
      expect(third.attemptsAllowed).toBe(3);
      expect(await submit(student, third, 32)).toMatchObject({ status: 'PASS' });
      const entries = await t.db.select().from(auditLog).where(eq(auditLog.entityId, student.id));
      expect(entries.filter((entry) => entry.action === 'grant_extra_attempt')).toHaveLength(1);
      const detail = await admin.get(`/api/admin/students/${String(student.id)}`);
      expect(detail.json<AdminStudent>().exceptions).toHaveLength(1);
    });

    it('reopens a closed completion window by the days granted, and says the new deadline', async () => {
      t.clock.set(new Date('2026-12-01T18:00:00Z'));
      const student = await createRulesStudent(t, 'four-hour-identity');
      t.clock.set(new Date('2027-02-02T18:00:00Z')); // two days after the 60-day window ended
      await signInAgain(t, student);
      expect((await draw(student, 1)).statusCode).toBe(403);

      const admin = await signedInStaff(t, 'super_admin');
      const granted = await grant(admin, student.id, { kind: 'extend_window', days: 14, reason: 'Hospital stay' });
      expect(granted.statusCode).toBe(201);
      expect(await rulesOf(student)).toMatchObject({ deadline: '2027-02-13', closedOn: null });
      expect((await draw(student, 1)).statusCode).not.toBe(403);
    });

    it('is refused to a clerk, to another court’s admin and without a reason, and changes nothing', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity');
      const otherCourt = await createCourt(t.db);
      const admin = await signedInStaff(t, 'admin');
      const body = { kind: 'extend_window', days: 5, reason: 'Family emergency' };
      expect((await grant(await signedInStaff(t, 'clerk'), student.id, body)).statusCode).toBe(403);
      // An admin limited to another court does not see this student at all.
      expect((await grant(await signedInStaff(t, 'admin', otherCourt.id), student.id, body)).statusCode).toBe(404);
      expect((await grant(admin, student.id, { ...body, reason: '  ' })).statusCode).toBe(400);
      const noSuchQuiz = { kind: 'extra_attempt', chapter: 5, reason: 'No such quiz' };
      expect((await grant(admin, student.id, noSuchQuiz)).statusCode).toBe(400);
      expect((await grant(admin, student.id, { ...body, days: 0 })).statusCode).toBe(400);
      const detail = await admin.get(`/api/admin/students/${String(student.id)}`);
      expect(detail.json<AdminStudent>().exceptions).toEqual([]);
    });

    describe('a grant sent twice (decision 040)', () => {
      const finalAttempt = { kind: 'extra_attempt', chapter: 6, reason: 'Power cut during attempt 2' };
      const storedGrants = (studentId: number) =>
        t.db.select().from(rulesExceptions).where(eq(rulesExceptions.studentId, studentId));

      it('stores one grant when the same admin sends the same grant twice at once, and answers both with it', async () => {
        const student = await createStudent(t.db, { createdAt: t.clock.now() });
        const admin = await signedInStaff(t, 'admin');

        const answers = await Promise.all([
          grant(admin, student.id, finalAttempt),
          grant(admin, student.id, finalAttempt),
        ]);

        const stored = await storedGrants(student.id);
        expect(stored).toHaveLength(1);
        for (const answer of answers) {
          expect(answer.statusCode, answer.body).toBe(201);
          expect(answer.json<RulesException[]>()).toEqual([
            expect.objectContaining({ id: stored[0]?.id, kind: 'extra_attempt', chapter: 6 }),
          ]);
        }
        const entries = await t.db.select().from(auditLog).where(eq(auditLog.entityId, student.id));
        expect(entries.filter((entry) => entry.action === 'grant_extra_attempt')).toHaveLength(1);
      });

      it('answers the same grant sent again within the minute with the first, and stores nothing more', async () => {
        const student = await createStudent(t.db, { createdAt: t.clock.now() });
        const admin = await signedInStaff(t, 'admin');
        const first = (await grant(admin, student.id, finalAttempt)).json<RulesException[]>();

        t.clock.advance(MINUTE - 1000);
        const again = await grant(admin, student.id, finalAttempt);

        expect(again.statusCode, again.body).toBe(201);
        expect(again.json<RulesException[]>()).toEqual(first);
        expect(await storedGrants(student.id)).toHaveLength(1);
      });

      it('stores the same grant again when the admin sends it more than a minute after the first', async () => {
        const student = await createStudent(t.db, { createdAt: t.clock.now() });
        const admin = await signedInStaff(t, 'admin');
        expect((await grant(admin, student.id, finalAttempt)).statusCode).toBe(201);

        t.clock.advance(MINUTE + 1000);
        const again = await grant(admin, student.id, finalAttempt);

        expect(again.statusCode, again.body).toBe(201);
        expect(again.json<RulesException[]>()).toHaveLength(2);
        expect(await storedGrants(student.id)).toHaveLength(2);
      });

      it('stores a grant for another quiz, or from another admin, sent within the same minute', async () => {
        const student = await createStudent(t.db, { createdAt: t.clock.now() });
        const admin = await signedInStaff(t, 'admin');
        expect((await grant(admin, student.id, finalAttempt)).statusCode).toBe(201);

        expect((await grant(admin, student.id, { ...finalAttempt, chapter: 3 })).statusCode).toBe(201);
        expect((await grant(await signedInStaff(t, 'super_admin'), student.id, finalAttempt)).statusCode).toBe(201);

        expect(await storedGrants(student.id)).toHaveLength(3);
      });
    });

    it('refuses an exception for an enrolment archived by a retake, storing nothing (decision 041)', async () => {
      const student = await createStudent(t.db, { createdAt: t.clock.now(), archivedAt: t.clock.now() });
      const admin = await signedInStaff(t, 'admin');

      const refused = await grant(admin, student.id, {
        kind: 'extra_attempt',
        chapter: 6,
        reason: 'Power cut during attempt 2',
      });

      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('ENROLMENT_ARCHIVED');
      expect(await t.db.select().from(rulesExceptions).where(eq(rulesExceptions.studentId, student.id))).toEqual([]);
    });
  });

  describe('a court’s rules, for a driver choosing the court (decision 021)', () => {
    const courtRules = (courtId: number, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/public/courts/${String(courtId)}/rules`, headers });

    it('tells anyone, before signing up, the strict profile’s time, checks, final, attempts, window and routing', async () => {
      const court = await createCourt(t.db, { rulesProfileId: 'four-hour-identity' });
      const response = await courtRules(court.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        profile: { id: 'four-hour-identity', version: 4, name: '4-hour course with identity checks' },
        seatTime: {
          minutesPerModule: 12,
          minutesPerChapter: 50,
          minutesBeforeFinal: 240,
          idleCutoffMinutes: 15,
          dailyCapMinutes: null,
        },
        identityChecks: { enabled: true, answerSeconds: 90 },
        quizzes: {
          chapter: { questions: 10, passMark: 7, attempts: null, waitMinutes: 0 },
          final: { questions: 40, passMark: 32, attempts: 2, waitMinutes: 1440 },
        },
        windowDays: 60,
        certificateRouting: 'student_and_court',
        courtHasEmail: true,
      });
    });

    it('says in Spanish the profile’s name, and that a court without an address gets no email', async () => {
      const court = await createCourt(t.db, { rulesProfileId: 'default', email: null });
      const rules = (await courtRules(court.id, { 'accept-language': 'es' })).json<StudentRules>();
      expect(rules.profile.name).not.toBe('Standard course');
      expect(rules.courtHasEmail).toBe(false);
      expect(rules.quizzes.final).toEqual({ questions: 20, passMark: 14, attempts: null, waitMinutes: 0 });
    });

    it('answers 404 for no such court and 400 for an id that is not one', async () => {
      expect((await courtRules(99_999_999)).statusCode).toBe(404);
      const huge = await t.app.inject({ method: 'GET', url: '/api/public/courts/99999999999/rules' });
      expect(huge.statusCode).toBe(400);
    });
  });

  describe('who sees a student’s rules', () => {
    it('shows them to the student and to staff whose scope covers the court; to no one else', async () => {
      const student = await createRulesStudent(t, 'four-hour-identity', { courtDueDate: '2030-01-01' });
      const other = await createRulesStudent(t, 'default');
      expect((await other.client.get(`/api/students/${String(student.id)}/rules`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/api/students/${String(student.id)}/rules` })).statusCode).toBe(
        401,
      );

      const admin = await createStaff(t.db, { role: 'admin' });
      const adminClient = apiClient(t.app, await signInStaff(t.app, admin));
      const seen = await adminClient.get(`/api/students/${String(student.id)}/rules`);
      expect(seen.statusCode).toBe(200);
      expect(seen.json<StudentRules>().profile).toEqual({
        id: 'four-hour-identity',
        version: 4,
        name: '4-hour course with identity checks',
      });
      const spanish = await adminClient.get(`/api/students/${String(student.id)}/rules`, { 'accept-language': 'es' });
      expect(spanish.json<StudentRules>().profile.name).toBe('Curso de 4 horas con verificación de identidad');

      const otherCourt = await createCourt(t.db);
      const limitedClient = await signedInStaff(t, 'admin', otherCourt.id);
      expect((await limitedClient.get(`/api/students/${String(student.id)}/rules`)).statusCode).toBe(404);

      const detail = await adminClient.get(`/api/admin/students/${String(student.id)}`);
      expect(detail.statusCode).toBe(200);
      expect(detail.json<AdminStudent>()).toMatchObject({
        rules_profile: { id: 'four-hour-identity', version: 4, name: '4-hour course with identity checks' },
        court_due_date: '2030-01-01',
      });
      // A staff member reading in Spanish sees the profile's Spanish name there too.
      const spanishDetail = await adminClient.get(`/api/admin/students/${String(student.id)}`, {
        'accept-language': 'es',
      });
      expect(spanishDetail.json<AdminStudent>().rules_profile?.name).toBe(
        'Curso de 4 horas con verificación de identidad',
      );
    });
  });
});

describe('a new version of a profile (decision 012: changes apply to new enrolments only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Loads a version of a profile as a start would after a reviewed change. */
  async function loadProfile(profile: RulesProfile) {
    await t.db.insert(rulesProfiles).values({ id: profile.id, version: profile.version, definition: profile });
  }

  async function register(courtId: number): Promise<RulesStudent> {
    const registration = buildRegistration({ court: courtId });
    const response = await t.app.inject({ method: 'POST', url: '/api/register/student', payload: registration });
    expect(response.statusCode, response.body).toBe(201);
    const { studentId } = response.json<{ studentId: number }>();
    await t.db.update(students).set({ paymentAt: t.clock.now() }).where(eq(students.id, studentId));
    await satisfySeatTimeAndIdentity(t, studentId);
    const student: RulesStudent = {
      id: studentId,
      lastName: registration.last_name,
      dlNumber: registration.dl_number.toUpperCase(),
      address: registration.address,
      email: registration.email,
      courtId,
      client: apiClient(t.app, ''),
    };
    await signInAgain(t, student);
    return student;
  }

  it('keeps an enrolment on the version it was pinned to while a new enrolment gets the new version', async () => {
    const court = await createCourt(t.db, { rulesProfileId: 'four-hour-identity' });
    const before = await register(court.id);

    const current = currentProfileVersion('four-hour-identity');
    const pinned = await getRulesProfile(t.db, 'four-hour-identity', current);
    await loadProfile({
      ...pinned,
      version: current + 1,
      quizzes: { ...pinned.quizzes, final: { questions: 20, passMark: 16, attempts: 3, waitMinutes: 60 } },
      completion: { windowDays: 30, warnDaysBefore: 5 },
    });
    const after = await register(court.id);

    const rulesOf = async (student: RulesStudent) =>
      (await student.client.get(`/api/students/${String(student.id)}/rules`)).json<StudentRules>();
    expect((await rulesOf(before)).profile.version).toBe(current);
    expect((await rulesOf(before)).quizzes.final).toEqual({
      questions: 40,
      passMark: 32,
      attempts: 2,
      waitMinutes: 1440,
    });
    expect((await rulesOf(after)).profile.version).toBe(current + 1);
    expect((await rulesOf(after)).quizzes.final).toEqual({ questions: 20, passMark: 16, attempts: 3, waitMinutes: 60 });
    expect((await rulesOf(after)).deadline).toBe('2026-12-22');

    for (const student of [before, after]) {
      for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapter, t.clock.now());
    }
    const finalOf = async (student: RulesStudent) => {
      const response = await student.client.get(`/api/quiz/finalExamQuestions/${String(student.id)}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Quiz>();
    };
    expect(await finalOf(before)).toMatchObject({ passMark: 32, attemptsAllowed: 2 });
    expect(await finalOf(after)).toMatchObject({ passMark: 16, attemptsAllowed: 3 });
    const versions = await t.db
      .select({ studentId: quizAttempts.studentId, version: quizAttempts.rulesProfileVersion })
      .from(quizAttempts)
      .where(eq(quizAttempts.chapterId, 6));
    expect(versions.find((row) => row.studentId === before.id)?.version).toBe(current);
    expect(versions.find((row) => row.studentId === after.id)?.version).toBe(current + 1);
  });

  it('sends the certificate to the student only under a student_only profile', async () => {
    const v1 = await getRulesProfile(t.db, 'default', 1);
    await loadProfile({
      ...v1,
      id: 'student-only-test',
      version: 1,
      certificate: { routing: 'student_only', retentionYears: 7 },
    });
    const court = await createCourt(t.db, { rulesProfileId: 'student-only-test' });
    const student = await register(court.id);
    await recordCourseCompletion(t, student.id);
    const certificate = await onlyCertificateOf(t.db, student.id);
    expect(certificate).toMatchObject({ routing: 'student_only', retainUntil: '2033-11-22' });
    expect((certificate.snapshot as { rulesProfile: string }).rulesProfile).toBe('Standard course (version 1)');
    const deliveries = await t.db
      .select({ recipient: certificateDeliveries.recipient })
      .from(certificateDeliveries)
      .where(eq(certificateDeliveries.certificateId, certificate.id));
    expect(deliveries.map((delivery) => delivery.recipient)).toEqual(['student']);
  });
});
