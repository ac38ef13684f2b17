import type { RulesProfile } from '@ts/contract';
import type { identityChecks } from '../../db/schema.ts';

// The schedule of identity checks, without the database (decision 012): when the next one is
// due, how questions group into checks, and how many misses in a row count toward a lock.

/** The profile's identity-check settings. */
export type IdentityRules = RulesProfile['identityChecks'];
/** One question asked (a row of identity_checks). */
export type CheckRow = typeof identityChecks.$inferSelect;

/** FNV-1a (32 bits): a small stable hash, the same on every read and every server. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const character of text) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/**
 * The spread of the schedule, in [0.5, 1.5): a hash of the student and how many checks they were
 * asked so far. Deterministic, so the moments differ between students and checks but a test can
 * compute them; a student cannot tell when the next one comes.
 */
export function scheduleFactor(studentId: number, checksSoFar: number): number {
  return 0.5 + stableHash(`${String(studentId)}:${String(checksSoFar)}`) / 2 ** 32;
}

/**
 * The counted seat time (seconds) at which the next check is due: the first after about
 * everyMinutes, each next about everyMinutes after the counted time the latest was asked at.
 */
export function nextCheckAtSeconds(
  studentId: number,
  everyMinutes: number,
  checksSoFar: number,
  latestCountedSecondsAtAsk: number,
): number {
  return Math.ceil(latestCountedSecondsAtAsk + everyMinutes * 60 * scheduleFactor(studentId, checksSoFar));
}

/** What grouping needs of a question: its outcome (the heartbeat's one read brings only that much). */
type Concluded = Pick<CheckRow, 'outcome'>;

export interface CheckGroup<R extends Concluded = CheckRow> {
  rows: R[];
  /** open: waiting for an answer; retrying: a wrong answer whose next question is asked. */
  status: 'open' | 'retrying' | 'passed' | 'missed';
}

/** The student's questions (oldest first) as checks: a first question and the retries after it. */
export function groupChecks<R extends Concluded>(rows: R[], retries: number): CheckGroup<R>[] {
  const groups: CheckGroup<R>[] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    const group: CheckGroup<R> = last?.status === 'retrying' ? last : { rows: [], status: 'open' };
    if (group !== last) groups.push(group);
    group.rows.push(row);
    if (row.outcome === null) group.status = 'open';
    else if (row.outcome === 'passed') group.status = 'passed';
    else if (row.outcome === 'wrong' && group.rows.length <= retries) group.status = 'retrying';
    else group.status = 'missed';
  }
  return groups;
}

/**
 * Is a random check due: has the counted seat time reached the next scheduled point? Never once
 * the course is completed.
 */
export function isRandomCheckDueAt(
  studentId: number,
  rules: IdentityRules,
  groups: CheckGroup<Pick<CheckRow, 'outcome' | 'countedSecondsAtAsk'>>[],
  progress: { countedSeconds: number; courseCompleted: boolean },
): boolean {
  if (progress.courseCompleted) return false;
  const latest = groups.at(-1)?.rows[0];
  const point = nextCheckAtSeconds(studentId, rules.everyMinutes, groups.length, latest?.countedSecondsAtAsk ?? 0);
  return progress.countedSeconds >= point;
}

/** Misses in a row that have not yet caused a lock (a pass or a lock starts the count anew). */
export function missesSinceLastLockOrPass(groups: CheckGroup<Concluded>[], missesBeforeLock: number): number {
  let run = 0;
  for (const group of groups) {
    if (group.status === 'passed') run = 0;
    else if (group.status === 'missed') run = run + 1 === missesBeforeLock ? 0 : run + 1;
  }
  return run;
}
