import { and, eq, isNull } from 'drizzle-orm';
import {
  PERSONAL_QUESTION_KEYS,
  PERSONAL_QUESTIONS_TO_ANSWER,
  type PersonalQuestionKey,
  type PersonalQuestionsState,
  type RulesProfile,
  type SetPersonalQuestions,
} from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { personalAnswers } from '../../db/schema.ts';
import { lockStudentRow } from '../../db/student-lock.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { AppError } from '../../plugins/errors.ts';
import { normaliseAnswer } from './identity-answers.ts';

/**
 * Personal validation questions (decision 050, as Texas asks them: 16 TAC 84.502): a student
 * whose profile names the `personal` identity source chooses PERSONAL_QUESTIONS_TO_ANSWER
 * questions and answers them at the first sign-in after payment; identity checks then ask one of
 * them. Only a salted hash (argon2) of the normalised answer is kept, so "Pepsi's" matches "pepsis".
 */

/** Whether the profile asks personal questions. */
export function asksPersonalQuestions(rules: Pick<RulesProfile, 'identityChecks'>): boolean {
  return rules.identityChecks.enabled && rules.identityChecks.sources.includes('personal');
}

/** The one rule: the course waits while the profile asks personal questions and fewer than five are answered. */
export function awaitsPersonalQuestions(rules: Pick<RulesProfile, 'identityChecks'>, answered: number): boolean {
  return asksPersonalQuestions(rules) && answered < PERSONAL_QUESTIONS_TO_ANSWER;
}

/** The questions a student answered and has not had reset. */
export async function findPersonalQuestionKeys(db: Db, studentId: number): Promise<PersonalQuestionKey[]> {
  const rows = await db
    .select({ key: personalAnswers.questionKey })
    .from(personalAnswers)
    .where(and(eq(personalAnswers.studentId, studentId), isNull(personalAnswers.archivedAt)))
    .orderBy(personalAnswers.id);
  return rows.map((row) => row.key);
}

export async function describePersonalQuestions(
  db: Db,
  studentId: number,
  rules: Pick<RulesProfile, 'identityChecks'>,
): Promise<PersonalQuestionsState> {
  const chosen = await findPersonalQuestionKeys(db, studentId);
  return {
    required: asksPersonalQuestions(rules),
    set: chosen.length >= PERSONAL_QUESTIONS_TO_ANSWER,
    count: PERSONAL_QUESTIONS_TO_ANSWER,
    keys: [...PERSONAL_QUESTION_KEYS],
    chosen,
  };
}

/** 409 PERSONAL_QUESTIONS_REQUIRED while the profile asks them and the student has not answered them. */
export async function assertPersonalQuestionsSet(
  db: Db,
  studentId: number,
  rules: Pick<RulesProfile, 'identityChecks'>,
): Promise<void> {
  if (!asksPersonalQuestions(rules)) return;
  if (!awaitsPersonalQuestions(rules, (await findPersonalQuestionKeys(db, studentId)).length)) return;
  throw new AppError(
    'PERSONAL_QUESTIONS_REQUIRED',
    'Please choose and answer your personal questions before you continue.',
  );
}

/** Stores the student's answers, hashed; once (409 PERSONAL_QUESTIONS_SET while answers are on file). */
export async function setPersonalQuestions(
  db: Db,
  clock: Clock,
  studentId: number,
  input: SetPersonalQuestions,
): Promise<void> {
  // Hashed before the transaction: argon2 takes a moment, and the row lock is for the check.
  const hashed = await Promise.all(
    input.answers.map(async ({ key, answer }) => ({ key, hash: await hashPassword(normaliseAnswer(answer)) })),
  );
  await db.transaction(async (tx) => {
    await lockStudentRow(tx, studentId);
    if ((await findPersonalQuestionKeys(tx, studentId)).length > 0) {
      throw new AppError('PERSONAL_QUESTIONS_SET', 'Your personal questions are already set.');
    }
    await tx
      .insert(personalAnswers)
      .values(
        hashed.map(({ key, hash }) => ({ studentId, questionKey: key, answerHash: hash, createdAt: clock.now() })),
      );
  });
}

/** Whether an answer matches the student's stored answer to this personal question. */
export async function personalAnswerMatches(
  db: Db,
  studentId: number,
  key: PersonalQuestionKey,
  answer: string,
): Promise<boolean> {
  const given = normaliseAnswer(answer);
  if (given === '') return false;
  const [row] = await db
    .select({ hash: personalAnswers.answerHash })
    .from(personalAnswers)
    .where(
      and(
        eq(personalAnswers.studentId, studentId),
        eq(personalAnswers.questionKey, key),
        isNull(personalAnswers.archivedAt),
      ),
    );
  return row ? verifyPassword(row.hash, given) : false;
}

/** Staff archive a student's answers with a reason (audited); the student answers again at the next sign-in. */
export async function resetPersonalQuestions(
  db: Db,
  clock: Clock,
  input: { studentId: number; staffId: number; reason: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStudentRow(tx, input.studentId);
    const archived = await tx
      .update(personalAnswers)
      .set({ archivedAt: clock.now() })
      .where(and(eq(personalAnswers.studentId, input.studentId), isNull(personalAnswers.archivedAt)))
      .returning({ key: personalAnswers.questionKey });
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: 'reset_personal_questions',
      entityType: 'student',
      entityId: input.studentId,
      before: { questions: archived.map((row) => row.key) },
      after: { questions: [], reason: input.reason },
    });
  });
}
