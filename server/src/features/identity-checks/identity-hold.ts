import { type SQL, sql } from 'drizzle-orm';
import { courseLocks, identityChecks, personalAnswers } from '../../db/schema.ts';
import { awaitsPersonalQuestions } from './personal-questions.ts';
import { jsonArrayColumn } from '../../db/subquery-columns.ts';
import type { StudentProfile } from '../rules/rules.service.ts';
import { type CheckRow, groupChecks, isRandomCheckDueAt } from './identity-schedule.ts';

// Whether an identity check holds the course, answered from columns of a bigger query (decision 019):
// the heartbeat reads its seat time, the chapters done and these in one round trip instead of a
// locked transaction per beat. Only a question whose time ran out unanswered needs the locked
// path (hasIdentityHold), which marks it timed out and may lock the course.

/** A question as the heartbeat's read brings it: enough to group checks and schedule the next. */
export interface AskedQuestion {
  outcome: CheckRow['outcome'];
  countedSecondsAtAsk: number;
  /** Unanswered and past its time limit: not yet settled as timed out. */
  expired: boolean;
}

export interface IdentitySnapshot {
  /** Oldest first. */
  questions: AskedQuestion[];
  locked: boolean;
  /** The personal questions answered and not reset (decision 050). */
  personalAnswers: number;
}

/**
 * The student's questions and whether a lock is in force at `now`, as columns of a query whose
 * rows are students (`studentId` is the outer query's student id column).
 */
export function identitySnapshotColumns(studentId: SQL, now: SQL) {
  return {
    identityQuestions: sql<AskedQuestion[]>`(
      select coalesce(json_agg(json_build_array(
        ${identityChecks.outcome},
        ${identityChecks.countedSecondsAtAsk},
        ${identityChecks.outcome} is null and ${identityChecks.expiresAt} <= ${now}
      ) order by ${identityChecks.id}), '[]')
      from ${identityChecks} where ${identityChecks.studentId} = ${studentId})`.mapWith((value: unknown) =>
      jsonArrayColumn<[CheckRow['outcome'], number, boolean]>(value).map(([outcome, countedSecondsAtAsk, expired]) => ({
        outcome,
        countedSecondsAtAsk,
        expired,
      })),
    ),
    courseLocked: sql<boolean>`exists (
      select 1 from ${courseLocks}
      where ${courseLocks.studentId} = ${studentId} and ${courseLocks.unlockedAt} is null
        and (${courseLocks.lockedUntil} is null or ${courseLocks.lockedUntil} > ${now}))`.mapWith(Boolean),
    personalAnswers: sql<number>`(select count(*) from ${personalAnswers}
      where ${personalAnswers.studentId} = ${studentId} and ${personalAnswers.archivedAt} is null)`.mapWith(Number),
  };
}

/**
 * 'hold': a check waits for its answer, one is due, or the course is locked; 'clear': none of
 * these; 'settle': a question ran out of time unanswered, so only the locked path can tell
 * (it may lock the course). Always 'clear' under a profile without identity checks.
 */
export function identityHoldFrom(
  snapshot: IdentitySnapshot,
  input: { studentId: number; profile: StudentProfile; countedSeconds: number; courseCompleted: boolean },
): 'hold' | 'clear' | 'settle' {
  const rules = input.profile.rules.identityChecks;
  if (!rules.enabled) return 'clear';
  // Personal questions the profile asks and the student has not answered hold the course (decision 050).
  if (awaitsPersonalQuestions(input.profile.rules, snapshot.personalAnswers)) return 'hold';
  if (snapshot.questions.some((question) => question.expired)) return 'settle';
  if (snapshot.locked || snapshot.questions.some((question) => question.outcome === null)) return 'hold';
  const groups = groupChecks(snapshot.questions, rules.retries);
  return isRandomCheckDueAt(input.studentId, rules, groups, input) ? 'hold' : 'clear';
}
