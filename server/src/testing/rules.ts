import { inArray } from 'drizzle-orm';
import { readRulesProfiles } from '../db/content-files.ts';
import { PERSONAL_QUESTION_KEYS, PERSONAL_QUESTIONS_TO_ANSWER } from '@ts/contract';
import { identityChecks, modules, personalAnswers, seatTimeLedger } from '../db/schema.ts';
import { normaliseAnswer } from '../features/identity-checks/identity-answers.ts';
import { hashPassword } from '../platform/passwords.ts';
import { localDate } from '../platform/clock.ts';
import type { TestApp } from './build-test-app.ts';
import { type ApiClient, apiClient } from './course.ts';
import { type CreatedStudent, createCourt, createStudent, markStudentPaid } from './factories.ts';
import { signInStudent } from './sign-in.ts';

/** Seconds credited to each module: more than any sample profile asks of a module, a chapter or the course. */
const GENEROUS_SECONDS_PER_MODULE = 2 * 60 * 60;

/** What satisfySeatTimeAndIdentity answers to every personal question. */
export const PERSONAL_TEST_ANSWER = 'Blue Ridge';

/**
 * Gives a student all the seat time and a passed identity check (one during study, one before the
 * final, and the personal questions a profile may ask) straight in the database, so tests of the other rules (quiz limits, windows, routing)
 * are not held by the seat-time and identity gates of the strict profiles. The ledger only takes
 * inserts; nothing here changes a row.
 */
export async function satisfySeatTimeAndIdentity(t: TestApp, studentId: number): Promise<void> {
  const now = t.clock.now();
  const schoolDay = localDate(now, t.config.schoolTimeZone);
  const rows = await t.db
    .select({ id: modules.id, chapterId: modules.chapterId })
    .from(modules)
    .where(inArray(modules.chapterId, [1, 2, 3, 4]));
  await t.db.insert(seatTimeLedger).values(
    rows.map((module) => ({
      studentId,
      moduleId: module.id,
      chapterId: module.chapterId,
      heartbeatAt: now,
      creditedSeconds: GENEROUS_SECONDS_PER_MODULE,
      schoolDay,
    })),
  );
  const counted = rows.length * GENEROUS_SECONDS_PER_MODULE;
  // A profile that asks personal validation questions has them answered (PERSONAL_TEST_ANSWER each).
  await t.db.insert(personalAnswers).values(
    await Promise.all(
      PERSONAL_QUESTION_KEYS.slice(0, PERSONAL_QUESTIONS_TO_ANSWER).map(async (questionKey) => ({
        studentId,
        questionKey,
        answerHash: await hashPassword(normaliseAnswer(PERSONAL_TEST_ANSWER)),
        createdAt: now,
      })),
    ),
  );
  await t.db.insert(identityChecks).values(
    (['random', 'before_final'] as const).map((reason) => ({
      studentId,
      source: 'dob' as const,
      reason,
      countedSecondsAtAsk: counted,
      askedAt: now,
      expiresAt: new Date(now.getTime() + 90_000),
      answeredAt: now,
      outcome: 'passed' as const,
    })),
  );
}

export interface RulesStudent extends CreatedStudent {
  courtId: number;
  client: ApiClient;
}

/** A student's own answers to five personal questions, through the API (all PERSONAL_TEST_ANSWER). */
export async function answerPersonalQuestions(client: ApiClient, studentId: number): Promise<void> {
  const answers = PERSONAL_QUESTION_KEYS.slice(0, PERSONAL_QUESTIONS_TO_ANSWER).map((key) => ({
    key,
    answer: PERSONAL_TEST_ANSWER,
  }));
  const response = await client.put(`/api/students/${String(studentId)}/personal-questions`, { answers });
  if (response.statusCode !== 200) throw new Error(`personal questions: ${response.body}`);
}

/** The version of a rules profile that content/rules holds now (what a new enrolment gets). */
export function currentProfileVersion(profileId: string): number {
  const profile = readRulesProfiles().find((candidate) => candidate.id === profileId);
  if (!profile) throw new Error(`no rules profile ${profileId}`);
  return profile.version;
}

/**
 * A paid, signed-in student in a court of their own under a rules profile (its current version unless
 * told), registered now by the test clock, with the seat time and identity checks done.
 */
export async function createRulesStudent(
  t: TestApp,
  profile: string,
  options: { version?: number; courtDueDate?: string | null } = {},
): Promise<RulesStudent> {
  const court = await createCourt(t.db, { rulesProfileId: profile });
  const student = await createStudent(t.db, {
    courtId: court.id,
    rulesProfileId: profile,
    rulesProfileVersion: options.version ?? currentProfileVersion(profile),
    courtDueDate: options.courtDueDate ?? null,
    createdAt: t.clock.now(),
  });
  await markStudentPaid(t.db, student.id, t.clock.now());
  await satisfySeatTimeAndIdentity(t, student.id);
  return { ...student, courtId: court.id, client: apiClient(t.app, await signInStudent(t.app, student)) };
}

/** Signs the student in again (a session lasts 12 hours; tests that wait a day need a new one). */
export async function signInAgain(t: TestApp, student: RulesStudent): Promise<ApiClient> {
  student.client = apiClient(t.app, await signInStudent(t.app, student));
  return student.client;
}
