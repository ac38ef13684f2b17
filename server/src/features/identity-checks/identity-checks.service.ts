import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  type AdminIdentity,
  FINAL_EXAM_CHAPTER,
  type IdentityCheckState,
  type IdentitySource,
  type PersonalQuestionKey,
  SIGN_IN_SOURCES,
} from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { courseLocks, courts, identityChecks, students } from '../../db/schema.ts';
import { sumCreditedSeconds } from '../seat-time/seat-time.queries.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { assertChapterOpen } from '../progress/chapter-order.ts';
import { getStudentProfile, type StudentProfile } from '../rules/rules.service.ts';
import { assertSeatTimeMet } from '../seat-time/seat-time.service.ts';
import { activeLock, lockIfMissedEnough } from './course-locks.ts';
import { answerMatches, streetNumberOf } from './identity-answers.ts';
import {
  asksPersonalQuestions,
  assertPersonalQuestionsSet,
  awaitsPersonalQuestions,
  findPersonalQuestionKeys,
  personalAnswerMatches,
} from './personal-questions.ts';
import { presentCheck, presentLock } from './identity-presenter.ts';
import {
  type CheckGroup,
  type CheckRow,
  groupChecks,
  type IdentityRules,
  isRandomCheckDueAt,
} from './identity-schedule.ts';
import { lockStudentRow } from '../../db/student-lock.ts';

/**
 * Identity checks and course locks (decision 012). A check asks one fact of the
 * student's own record with a time limit: at random moments of counted seat time, and before the
 * final exam when the profile says so. A wrong answer is followed at once by another question
 * while the profile's retries last (each question is a row of identity_checks; a check is a first
 * question and its retries); a check is missed when the last answer is wrong or time runs out.
 * Missed checks in a row lock the course. Every question and lock is kept for auditors; the
 * answers are not.
 */

interface IdentityState {
  rows: CheckRow[];
  groups: CheckGroup[];
  open: CheckRow | undefined;
  lock: typeof courseLocks.$inferSelect | undefined;
}

/**
 * Reads the student's checks with their row locked (two requests cannot both conclude a check),
 * marking a question whose time ran out unanswered as timed out, and locking the course when
 * that was one miss too many. Call inside a transaction.
 */
async function settleChecks(tx: Db, now: Date, studentId: number, rules: IdentityRules): Promise<IdentityState> {
  await lockStudentRow(tx, studentId);
  const rows = await tx
    .select()
    .from(identityChecks)
    .where(eq(identityChecks.studentId, studentId))
    .orderBy(asc(identityChecks.id));
  const stale = rows.find((row) => row.outcome === null && row.expiresAt <= now);
  if (stale) {
    const before = groupChecks(
      rows.filter((row) => row.id !== stale.id),
      rules.retries,
    );
    await tx.update(identityChecks).set({ outcome: 'timed_out' }).where(eq(identityChecks.id, stale.id));
    stale.outcome = 'timed_out';
    await lockIfMissedEnough(tx, now, studentId, rules, before, groupChecks(rows, rules.retries));
  }
  const groups = groupChecks(rows, rules.retries);
  return {
    rows,
    groups,
    open: rows.find((row) => row.outcome === null),
    lock: await activeLock(tx, studentId, now),
  };
}

/** Is a check due at a random moment: counted seat time past the next scheduled point? */
async function isRandomCheckDue(db: Db, studentId: number, rules: IdentityRules, state: IdentityState) {
  const [student] = await db
    .select({ completedAt: students.completedAt })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student || student.completedAt) return { due: false, counted: 0 };
  const counted = await sumCreditedSeconds(db, studentId);
  const progress = { countedSeconds: counted, courseCompleted: false };
  return { due: isRandomCheckDueAt(studentId, rules, state.groups, progress), counted };
}

const pickOne = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;

interface AskedQuestion {
  source: IdentitySource;
  /** For `personal`: which of the student's personal questions. */
  personalKey: PersonalQuestionKey | null;
}

/**
 * The question to ask (decision 050): a source of the profile that this student can answer and
 * the sign-in does not already carry (never the licence number), preferring those not in `avoid`
 * (the questions of a check's earlier tries); a `personal` question is one the student chose.
 */
async function chooseQuestion(
  tx: Db,
  studentId: number,
  rules: IdentityRules,
  avoid: ReadonlySet<IdentitySource> = new Set(),
): Promise<AskedQuestion> {
  const [student] = await tx.select({ address: students.address }).from(students).where(eq(students.id, studentId));
  const personalKeys = rules.sources.includes('personal') ? await findPersonalQuestionKeys(tx, studentId) : [];
  const askable = rules.sources.filter(
    (source) =>
      !SIGN_IN_SOURCES.includes(source) &&
      (source !== 'street_number' || streetNumberOf(student?.address ?? '') !== null) &&
      (source !== 'personal' || personalKeys.length > 0),
  );
  // A profile's sources are never all unaskable (the date of birth is always on file).
  const candidates = askable.length > 0 ? askable : (['dob'] as const);
  const fresh = candidates.filter((source) => !avoid.has(source));
  const source = pickOne(fresh.length > 0 ? fresh : candidates);
  return { source, personalKey: source === 'personal' ? pickOne(personalKeys) : null };
}

async function askCheck(
  tx: Db,
  now: Date,
  input: {
    studentId: number;
    rules: IdentityRules;
    reason: CheckRow['reason'];
    countedSecondsAtAsk: number;
    question: AskedQuestion;
  },
): Promise<CheckRow> {
  const [row] = await tx
    .insert(identityChecks)
    .values({
      studentId: input.studentId,
      source: input.question.source,
      personalKey: input.question.personalKey,
      reason: input.reason,
      countedSecondsAtAsk: input.countedSecondsAtAsk,
      askedAt: now,
      expiresAt: new Date(now.getTime() + input.rules.answerSeconds * 1000),
    })
    .returning();
  if (!row) throw new Error('identity check was not saved');
  return row;
}

function lockedError(lock: NonNullable<IdentityState['lock']>): AppError {
  const until = lock.lockedUntil?.toISOString() ?? null;
  return new AppError(
    'COURSE_LOCKED',
    until
      ? 'Your course is locked for a while because identity checks were missed.'
      : 'Your course is locked because identity checks were missed. Please contact the school to unlock it.',
    { until, reason: lock.reason },
  );
}

const pendingError = () => new AppError('IDENTITY_CHECK_PENDING', 'Please answer the identity check to continue.');

const NOTHING: IdentityCheckState = { check: null, locked: null };

/**
 * 409 IDENTITY_CHECK_PENDING while a check waits for its answer or one is due, 423 COURSE_LOCKED
 * while the course is locked (decision 012). For the final exam's draw under a profile that asks
 * before the final, a passed 'before_final' check is required: one is asked here when missing.
 * Under a profile without identity checks nothing is read.
 */
export async function assertNoIdentityHold(
  db: Db,
  clock: Clock,
  studentId: number,
  profile: StudentProfile,
  action: { finalDraw?: boolean } = {},
): Promise<void> {
  const rules = profile.rules.identityChecks;
  if (!rules.enabled) return;
  await assertPersonalQuestionsSet(db, studentId, profile.rules);
  const now = clock.now();
  const state = await db.transaction(async (tx) => settleChecks(tx, now, studentId, rules));
  if (state.lock) throw lockedError(state.lock);
  if (state.open) throw pendingError();
  if ((await isRandomCheckDue(db, studentId, rules, state)).due) throw pendingError();
  if (!action.finalDraw || !rules.beforeFinal) return;
  if (state.rows.some((row) => row.reason === 'before_final' && row.outcome === 'passed')) return;
  // Asked only once the final is otherwise open, so the question is not wasted on a closed exam.
  await assertChapterOpen(db, studentId, FINAL_EXAM_CHAPTER);
  await assertSeatTimeMet(db, { studentId, profile, scope: { kind: 'course' } });
  await db.transaction(async (tx) => {
    const settled = await settleChecks(tx, now, studentId, rules);
    if (settled.open || settled.lock) return;
    await askCheck(tx, now, {
      studentId,
      rules,
      reason: 'before_final',
      countedSecondsAtAsk: await sumCreditedSeconds(tx, studentId),
      question: await chooseQuestion(tx, studentId, rules),
    });
  });
  throw pendingError();
}

/**
 * Does an identity check hold the course now: one waiting for its answer, one due, or a lock?
 * The heartbeat answer carries it so the page asks at once. false under a profile without checks.
 */
export async function hasIdentityHold(
  db: Db,
  clock: Clock,
  studentId: number,
  profile: StudentProfile,
): Promise<boolean> {
  const rules = profile.rules.identityChecks;
  if (!rules.enabled) return false;
  if (
    asksPersonalQuestions(profile.rules) &&
    awaitsPersonalQuestions(profile.rules, (await findPersonalQuestionKeys(db, studentId)).length)
  ) {
    return true;
  }
  const state = await db.transaction(async (tx) => settleChecks(tx, clock.now(), studentId, rules));
  if (state.lock || state.open) return true;
  return (await isRandomCheckDue(db, studentId, rules, state)).due;
}

/**
 * The student's open check and lock (GET identity-check). A check due now is asked here, so the
 * page that polls this (or that was refused with 409) shows it. Under a profile without identity
 * checks both are null.
 */
export async function getIdentityCheckState(db: Db, clock: Clock, studentId: number): Promise<IdentityCheckState> {
  const { rules } = await getStudentProfile(db, studentId);
  const identity = rules.identityChecks;
  if (!identity.enabled) return NOTHING;
  const now = clock.now();
  const row = await db.transaction(async (tx) => {
    const state = await settleChecks(tx, now, studentId, identity);
    if (state.lock) return { lock: state.lock };
    if (state.open) return { open: state.open };
    const { due, counted } = await isRandomCheckDue(tx, studentId, identity, state);
    if (!due) return {};
    const open = await askCheck(tx, now, {
      studentId,
      rules: identity,
      reason: 'random',
      countedSecondsAtAsk: counted,
      question: await chooseQuestion(tx, studentId, identity),
    });
    return { open };
  });
  if (row.lock) return { check: null, locked: presentLock(row.lock) };
  if (row.open) return { check: await presentCheck(db, now, row.open), locked: null };
  return NOTHING;
}

async function identityRecord(db: Db, studentId: number) {
  const [row] = await db
    .select({
      dob: students.dob,
      zip: students.zip,
      address: students.address,
      dlNumber: students.dlNumber,
      courtName: courts.name,
    })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(students.id, studentId));
  if (!row) throw notFound('No such student.');
  return row;
}

/**
 * The student answers a question. A right answer passes the check; a wrong one asks another
 * question at once while retries last, else the check is missed; an answer after the time limit
 * is timed out. Missed checks in a row lock the course. The answer is compared and forgotten.
 */
export async function answerIdentityCheck(
  db: Db,
  clock: Clock,
  input: { studentId: number; checkId: number; answer: string },
): Promise<{ outcome: 'passed' | 'wrong' | 'timed_out'; next: IdentityCheckState }> {
  const { studentId, checkId } = input;
  const { rules } = await getStudentProfile(db, studentId);
  const identity = rules.identityChecks;
  if (!identity.enabled) throw notFound('No such identity check.');
  const record = await identityRecord(db, studentId);
  const now = clock.now();
  const result = await db.transaction(async (tx) => {
    const state = await settleChecks(tx, now, studentId, identity);
    const row = state.rows.find((candidate) => candidate.id === checkId);
    if (!row) throw notFound('No such identity check.');
    if (row.outcome === 'timed_out' && row.answeredAt === null) {
      // Its time ran out (settled just now or by an earlier call): a late answer is timed out, whatever it says.
      await tx.update(identityChecks).set({ answeredAt: now }).where(eq(identityChecks.id, row.id));
      return { outcome: 'timed_out' as const };
    }
    if (row.outcome !== null) {
      throw new AppError('IDENTITY_CHECK_CLOSED', 'This identity check was already answered.');
    }
    const before = groupChecks(
      state.rows.filter((candidate) => candidate.id !== row.id),
      identity.retries,
    );
    const matches =
      row.source === 'personal' && row.personalKey
        ? await personalAnswerMatches(tx, studentId, row.personalKey, input.answer)
        : answerMatches(row.source, input.answer, record);
    const outcome: 'passed' | 'wrong' = matches ? 'passed' : 'wrong';
    await tx.update(identityChecks).set({ outcome, answeredAt: now }).where(eq(identityChecks.id, row.id));
    row.outcome = outcome;
    const after = groupChecks(state.rows, identity.retries);
    const group = after.at(-1);
    if (group?.status === 'retrying') {
      await askCheck(tx, now, {
        studentId,
        rules: identity,
        reason: row.reason,
        // A retry belongs to the same check: the schedule runs from when the check began.
        countedSecondsAtAsk: group.rows[0]?.countedSecondsAtAsk ?? row.countedSecondsAtAsk,
        question: await chooseQuestion(tx, studentId, identity, new Set(group.rows.map((question) => question.source))),
      });
    } else if (group?.status === 'missed') {
      await lockIfMissedEnough(tx, now, studentId, identity, before, after);
    }
    return { outcome };
  });
  return { outcome: result.outcome, next: await describeState(db, now, studentId) };
}

/** The open check and lock as they stand, asking nothing new. */
async function describeState(db: Db, now: Date, studentId: number): Promise<IdentityCheckState> {
  const lock = await activeLock(db, studentId, now);
  if (lock) return { check: null, locked: presentLock(lock) };
  const [open] = await db
    .select()
    .from(identityChecks)
    .where(
      and(eq(identityChecks.studentId, studentId), isNull(identityChecks.outcome), gt(identityChecks.expiresAt, now)),
    )
    .orderBy(desc(identityChecks.id))
    .limit(1);
  return { check: open ? await presentCheck(db, now, open) : null, locked: null };
}

/** Every question asked (oldest first) and the lock in force, for the admin student detail. */
export async function getStudentIdentity(db: Db, clock: Clock, studentId: number): Promise<AdminIdentity> {
  const rows = await db
    .select()
    .from(identityChecks)
    .where(eq(identityChecks.studentId, studentId))
    .orderBy(asc(identityChecks.id));
  const now = clock.now();
  const lock = await activeLock(db, studentId, now);
  const { rules } = await getStudentProfile(db, studentId);
  return {
    personal: { required: asksPersonalQuestions(rules), chosen: await findPersonalQuestionKeys(db, studentId) },
    checks: rows.map((row) => ({
      source: row.source,
      reason: row.reason,
      asked_at: row.askedAt.toISOString(),
      // A question whose time ran out shows as timed out even before the student's next call settles it.
      outcome: row.outcome ?? (row.expiresAt <= now ? 'timed_out' : null),
    })),
    lock: lock
      ? { locked_at: lock.lockedAt.toISOString(), until: lock.lockedUntil?.toISOString() ?? null, reason: lock.reason }
      : null,
  };
}
