import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityCheckState, PersonalQuestionsState, RulesProfile } from '@ts/contract';
import { auditLog, modules, personalAnswers, rulesProfiles, seatTimeLedger } from '../../db/schema.ts';
import { localDate } from '../../platform/clock.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { type ApiClient, apiClient, moduleIdsOf, signedInStaff } from '../../testing/course.ts';
import { createCourt, createStaff, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { currentProfileVersion } from '../../testing/rules.ts';
import { signInStaff, signInStudent } from '../../testing/sign-in.ts';
import { getRulesProfile } from '../rules/rules.service.ts';

/** Texas-style: the course asks personal validation questions (decision 050). */
const PERSONAL = 'six-hour-student-delivers';

const ANSWERS = [
  { key: 'first_car_make', answer: 'Ford' },
  { key: 'birth_city', answer: 'San José' },
  { key: 'grandparent_first_name', answer: 'Mª Luisa' },
  { key: 'favorite_childhood_food', answer: "Pepsi's" },
  { key: 'first_pet_name', answer: 'Max' },
] as const;

interface Learner {
  id: number;
  courtId: number;
  client: ApiClient;
}

describe('personal validation questions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    // A profile that asks only personal questions (and, from an old version, the licence's last four).
    const base = await getRulesProfile(t.db, PERSONAL, currentProfileVersion(PERSONAL));
    for (const [id, sources] of [
      ['personal-only', ['personal']],
      ['legacy-licence', ['dl_last4', 'dob']],
    ] as const) {
      const profile: RulesProfile = {
        ...base,
        id,
        version: 1,
        identityChecks: { ...base.identityChecks, everyMinutes: 5, sources: [...sources] },
      };
      await t.db.insert(rulesProfiles).values({ id, version: 1, definition: profile });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function learner(profile = PERSONAL, version = currentProfileVersion(PERSONAL)): Promise<Learner> {
    const court = await createCourt(t.db, { rulesProfileId: profile });
    const student = await createStudent(t.db, {
      courtId: court.id,
      rulesProfileId: profile,
      rulesProfileVersion: version,
    });
    await markStudentPaid(t.db, student.id);
    return { id: student.id, courtId: court.id, client: apiClient(t.app, await signInStudent(t.app, student)) };
  }

  const url = (student: Learner) => `/api/students/${String(student.id)}/personal-questions`;

  async function stateOf(student: Learner): Promise<PersonalQuestionsState> {
    const response = await student.client.get(url(student));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PersonalQuestionsState>();
  }

  async function answerAll(student: Learner) {
    return student.client.put(url(student), { answers: ANSWERS });
  }

  /** Two hours of counted study in chapter 1: past any check's due point under a 5-minute schedule. */
  async function studyLong(student: Learner) {
    const [moduleId] = await moduleIdsOf(t.db, 1);
    const [module] = await t.db.select().from(modules).where(eq(modules.id, moduleId!));
    await t.db.insert(seatTimeLedger).values({
      studentId: student.id,
      moduleId: moduleId!,
      chapterId: module!.chapterId,
      heartbeatAt: t.clock.now(),
      creditedSeconds: 7200,
      schoolDay: localDate(t.clock.now(), t.config.schoolTimeZone),
    });
  }

  async function askedCheck(student: Learner) {
    const response = await student.client.get(`/api/students/${String(student.id)}/identity-check`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IdentityCheckState>().check;
  }

  it('holds the course until the student has chosen and answered five questions', async () => {
    const student = await learner();
    expect(await stateOf(student)).toMatchObject({ required: true, set: false, count: 5, chosen: [] });
    expect((await stateOf(student)).keys.length).toBeGreaterThanOrEqual(12);
    const [moduleId] = await moduleIdsOf(t.db, 1);
    const held = await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ error: { code: 'PERSONAL_QUESTIONS_REQUIRED' } });

    const set = await answerAll(student);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ set: true, chosen: ANSWERS.map((answer) => answer.key) });
    // Now only the profile's other rules (its minutes of study) stand in the way.
    const after = await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
    expect(after.json()).toMatchObject({ error: { code: 'SEAT_TIME_REQUIRED' } });
  });

  it('credits no study time to a heartbeat while the questions are unanswered, and says the course is held', async () => {
    const student = await learner();
    const [moduleId] = await moduleIdsOf(t.db, 1);
    const beat = () => student.client.post('/api/students/heartbeat', { studentId: student.id, moduleId });
    expect((await beat()).statusCode).toBe(200);
    t.clock.advance(30_000);
    const held = await beat();
    expect(held.json()).toMatchObject({ identityCheckDue: true, module: { countedSeconds: 0 } });
    await answerAll(student);
    t.clock.advance(30_000);
    expect((await beat()).json()).toMatchObject({ identityCheckDue: false, module: { countedSeconds: 30 } });
  });

  it('keeps only salted hashes of the answers, and sets them once', async () => {
    const student = await learner();
    await answerAll(student);
    const rows = await t.db.select().from(personalAnswers).where(eq(personalAnswers.studentId, student.id));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.answerHash).toMatch(/^\$argon2id\$/);
      // No answer in the clear (the short ones could turn up in any base64 by chance).
      for (const { answer } of ANSWERS.filter(({ answer }) => answer.length >= 6)) {
        expect(row.answerHash.toLowerCase()).not.toContain(answer.toLowerCase().replace(/[^a-z]/g, ''));
      }
    }
    expect(new Set(rows.map((row) => row.answerHash)).size).toBe(5);
    const again = await answerAll(student);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'PERSONAL_QUESTIONS_SET' } });
  });

  it('refuses four answers, a question chosen twice, an unknown question and an empty answer', async () => {
    const student = await learner();
    for (const answers of [
      ANSWERS.slice(0, 4),
      [...ANSWERS.slice(0, 4), ANSWERS[0]],
      [...ANSWERS.slice(0, 4), { key: 'mothers_maiden_name', answer: 'Smith' }],
      [...ANSWERS.slice(0, 4), { key: 'first_job', answer: ' ! ' }],
    ]) {
      const response = await student.client.put(url(student), { answers });
      expect(response.statusCode, JSON.stringify(answers)).toBe(400);
    }
    expect((await stateOf(student)).set).toBe(false);
  });

  it("asks one of the student's own questions and takes the answer however it is typed", async () => {
    const student = await learner('personal-only', 1);
    await answerAll(student);
    await studyLong(student);
    const check = await askedCheck(student);
    expect(check?.source).toBe('personal');
    const key = check!.question_key.replace(/^personal\./, '');
    expect(ANSWERS.map((answer) => answer.key as string)).toContain(key);
    const given = {
      first_car_make: ' FORD ',
      birth_city: 'san jose',
      grandparent_first_name: 'ma luisa',
      favorite_childhood_food: 'pepsis',
      first_pet_name: 'max.',
    }[key as (typeof ANSWERS)[number]['key']];
    const answered = await student.client.post(
      `/api/students/${String(student.id)}/identity-check/${String(check!.id)}`,
      {
        answer: given,
      },
    );
    expect(answered.json()).toMatchObject({ outcome: 'passed' });
  });

  it('counts a wrong personal answer as wrong', async () => {
    const student = await learner('personal-only', 1);
    await answerAll(student);
    await studyLong(student);
    const check = await askedCheck(student);
    const answered = await student.client.post(
      `/api/students/${String(student.id)}/identity-check/${String(check!.id)}`,
      {
        answer: 'Chevrolet Springfield',
      },
    );
    expect(answered.json()).toMatchObject({ outcome: 'wrong' });
  });

  it('never asks what the sign-in carries, even under a profile version that lists it', async () => {
    const student = await learner('legacy-licence', 1);
    await studyLong(student);
    const check = await askedCheck(student);
    expect(check?.source).toBe('dob');
  });

  it('lets an admin of the court reset them with a reason, audited; the student answers again', async () => {
    const student = await learner();
    await answerAll(student);
    const clerk = await signedInStaff(t, 'clerk');
    const otherCourtAdmin = await signedInStaff(t, 'admin', (await createCourt(t.db)).id);
    const admin = await createStaff(t.db, { role: 'admin', courtId: student.courtId });
    const courtAdmin = apiClient(t.app, await signInStaff(t.app, admin));
    const resetUrl = `/api/admin/students/${String(student.id)}/personal-questions/reset`;
    const reason = { reason: 'The student forgot the answers; identity confirmed by phone.' };

    expect((await clerk.post(resetUrl, reason)).statusCode).toBe(403);
    expect((await otherCourtAdmin.post(resetUrl, reason)).statusCode).toBe(404);
    expect((await courtAdmin.post(resetUrl, { reason: '' })).statusCode).toBe(400);
    expect((await stateOf(student)).set).toBe(true);

    const reset = await courtAdmin.post(resetUrl, reason);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await stateOf(student)).toMatchObject({ set: false, chosen: [] });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'reset_personal_questions'), eq(auditLog.entityId, student.id)));
    expect(entry).toMatchObject({ staffId: admin.id, entityType: 'student' });
    expect(entry?.after).toMatchObject({ reason: reason.reason });
    // Archived, not deleted.
    expect(await t.db.select().from(personalAnswers).where(eq(personalAnswers.studentId, student.id))).toHaveLength(5);
    expect((await answerAll(student)).statusCode).toBe(200);
  });
});
