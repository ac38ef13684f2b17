import { and, count, eq, gt, lt, min, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { prepareStatement, selectPreparedStatementRows } from '../../db/raw-rows.ts';
import { loginFailures } from '../../db/schema.ts';
import { timestampOrNull } from '../../db/subquery-columns.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashToken } from '../../platform/tokens.ts';
import { AppError, tooManyRequests } from '../../plugins/errors.ts';
import type { Auth } from '../../plugins/session.ts';

/** Issue 2: at most 5 failed attempts per licence number or username per 15 minutes... */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_SUBJECT = 5;
/** ...plus a cap per address, high enough for a classroom or a library behind one address. */
export const MAX_FAILURES_PER_ADDRESS = 30;

/**
 * Whose guesses are counted: a student's licence number (sign-in, and registrations that hit an
 * existing enrolment: both reveal whether a licence and last name belong together, issue 13) or a
 * staff account.
 */
export type ThrottleScope = 'student' | 'admin';

export interface ThrottleSubject {
  scope: ThrottleScope;
  /** The licence number, or the staff account or typed login. */
  subject: string;
  /** The client's address. */
  ip: string;
  /** What a 429 says (a sign-in's words unless the caller has its own). */
  tooManyMessage?: string;
}

/**
 * A staff account's throttle subject: sign-ins and password changes of one account share one
 * budget, whichever name (username or email) was typed.
 */
export function staffAccountThrottleSubject(staffId: number): string {
  return `account:${String(staffId)}`;
}

/** The hash the throttle table keeps: a licence number is personal data. */
export function throttleSubjectHash(scope: ThrottleScope, subject: string): string {
  return hashToken(`${scope}:${subject.toLowerCase()}`);
}

/**
 * Runs one guess of a subject under a transaction-scoped advisory lock, so parallel guesses are
 * counted one after another and cannot all slip under the limit. A subject or address over its
 * limit gets 429 with Retry-After before the guess runs. The guess calls `recordFailure()` when it
 * fails; the failure commits with the transaction, so the guess must return (not throw) and let the
 * caller throw after the commit.
 */
export async function withGuessThrottle<T>(
  db: Db,
  clock: Clock,
  who: ThrottleSubject,
  guess: (tx: Db, recordFailure: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const subjectHash = throttleSubjectHash(who.scope, who.subject);
  return db.transaction(async (tx) => {
    await prepareStatement(
      tx,
      'lock_guess',
      () => sql`select pg_advisory_xact_lock(hashtext(${sql.placeholder('subjectHash')}::text))`,
    ).execute({ subjectHash });
    await assertUnderLimits(tx, clock, who);
    return guess(tx, async () => {
      await tx.insert(loginFailures).values({ scope: who.scope, subjectHash, ip: who.ip, createdAt: clock.now() });
    });
  });
}

/**
 * The failures that count against `who` (the `guess…` placeholders, guessValues): by subject, by
 * address. guess_student_sign_in (migration 0023) counts the same in PL/pgSQL: a change here is
 * a new migration there.
 */
function countedFailures() {
  const subjectMatches = and(
    eq(loginFailures.scope, sql.placeholder('guessScope')),
    eq(loginFailures.subjectHash, sql.placeholder('guessSubjectHash')),
  );
  const addressMatches = eq(loginFailures.ip, sql.placeholder('guessIp'));
  return {
    subjectMatches,
    addressMatches,
    inWindow: and(gt(loginFailures.createdAt, sql.placeholder('guessSince')), or(subjectMatches, addressMatches)),
  };
}

/** The values of countedFailures' placeholders for one guess. */
export function guessValues(clock: Clock, who: ThrottleSubject) {
  return {
    guessScope: who.scope,
    guessSubjectHash: throttleSubjectHash(who.scope, who.subject),
    guessIp: who.ip,
    guessSince: new Date(clock.now().getTime() - LOGIN_WINDOW_MS),
  };
}

/** The staff member whose refused changes withStaffProbeThrottle counts: one limited to a court. */
export function courtLimitedStaff(auth: Auth | null, ip: string): { staffId: number; ip: string } | null {
  return auth?.kind === 'staff' && auth.courtId !== null ? { staffId: auth.staffId, ip } : null;
}

/**
 * A court-limited staff member's change that another court's enrolment can refuse (an email or a
 * licence number in use answers 409 DUPLICATE_ACCOUNT): the refusal tells them that a record
 * they may not see exists, so each one counts as a failed guess of their account, in the budget
 * its sign-ins use, and over the limit the change is refused with 429 before it runs (whatever
 * it would have answered). `who` null: school-wide staff, who see every court's records anyway.
 */
export async function withStaffProbeThrottle<T>(
  db: Db,
  clock: Clock,
  who: { staffId: number; ip: string } | null,
  change: () => Promise<T>,
): Promise<T> {
  if (!who) return change();
  const subject: ThrottleSubject = {
    scope: 'admin',
    subject: staffAccountThrottleSubject(who.staffId),
    ip: who.ip,
    tooManyMessage: 'Too many changes were refused as already in use. Please wait 15 minutes and try again.',
  };
  await withGuessThrottle(db, clock, subject, () => Promise.resolve());
  try {
    return await change();
  } catch (error) {
    if (error instanceof AppError && error.code === 'DUPLICATE_ACCOUNT') {
      await withGuessThrottle(db, clock, subject, (_tx, recordFailure) => recordFailure());
    }
    throw error;
  }
}

/**
 * For a statement that acts only while `who` is under both limits, as assertUnderLimits counts
 * them (a registration that finds no enrolment to collide with, issue 15: it counts no failure, so
 * it needs no lock): true while under. Its values are guessValues'.
 */
export function underGuessLimits() {
  const { subjectMatches, addressMatches, inWindow } = countedFailures();
  return sql`(select count(case when ${subjectMatches} then 1 end) < ${MAX_FAILURES_PER_SUBJECT}
      and count(case when ${addressMatches} then 1 end) < ${MAX_FAILURES_PER_ADDRESS}
    from ${loginFailures} where ${inWindow})`;
}

async function assertUnderLimits(db: Db, clock: Clock, who: ThrottleSubject): Promise<void> {
  const now = clock.now().getTime();
  // Prepared once (issue 15): every sign-in and every public registration asks it.
  const [row] = await prepareOnce(db, 'count_guesses', (database) => {
    const { subjectMatches, addressMatches, inWindow } = countedFailures();
    return database
      .select({
        bySubject: count(sql`case when ${subjectMatches} then 1 end`),
        byAddress: count(sql`case when ${addressMatches} then 1 end`),
        oldest: min(loginFailures.createdAt),
      })
      .from(loginFailures)
      .where(inWindow)
      .prepare('count_guesses');
  }).execute(guessValues(clock, who));
  if ((row?.bySubject ?? 0) >= MAX_FAILURES_PER_SUBJECT || (row?.byAddress ?? 0) >= MAX_FAILURES_PER_ADDRESS) {
    throw tooManyGuesses(who, row?.oldest ?? null, now);
  }
}

/** The 429 for a subject or address over its limit, from the oldest failure counted. */
function tooManyGuesses(who: ThrottleSubject, oldestFailure: Date | string | null, now: number) {
  // When the oldest counted failure leaves the window, one more attempt is allowed.
  const oldest = oldestFailure ? new Date(oldestFailure).getTime() : now;
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - now) / 1000));
  return tooManyRequests(
    who.tooManyMessage ?? 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
    retryAfterSeconds,
  );
}

/** What guess_student_sign_in answers (migration 0023): over the limit, the student, or neither. */
interface StudentGuessRow extends Record<string, unknown> {
  over_limit: boolean;
  oldest_failure: Date | string | null;
  id: number | null;
  first_name: string | null;
  last_name: string | null;
  payment_at: Date | string | null;
  completed_at: Date | string | null;
}

/**
 * A student's sign-in guess (last name and licence number, as the registration stores it), as
 * withGuessThrottle runs a guess but in one statement (issue 15: a thousand students may sign in
 * within a minute, and the transaction held a pool connection across five round trips): the
 * licence's lock, the counted failures (429 past a limit), the active enrolment, and a failure
 * recorded when there is none. The lock is what keeps a burst of guesses sent at once from being
 * checked before their failures are counted.
 */
export async function guessStudentSignIn(
  db: Db,
  clock: Clock,
  typed: { dlNumber: string; lastName: string; ip: string },
): Promise<{
  id: number;
  firstName: string;
  lastName: string;
  paymentAt: Date | null;
  completedAt: Date | null;
} | null> {
  const who = { scope: 'student', subject: typed.dlNumber, ip: typed.ip } as const;
  const now = clock.now();
  const { guessSubjectHash, guessSince } = guessValues(clock, who);
  const [row] = await selectPreparedStatementRows<StudentGuessRow>(
    db,
    'guess_student_sign_in',
    () => sql`select * from guess_student_sign_in(${sql.placeholder('subjectHash')}::text, ${sql.placeholder('ip')}::text,
        ${sql.placeholder('since')}::timestamptz, ${sql.placeholder('now')}::timestamptz,
        ${sql.placeholder('maxBySubject')}::int, ${sql.placeholder('maxByAddress')}::int,
        ${sql.placeholder('dlNumber')}::text, ${sql.placeholder('lastName')}::text)`,
    {
      subjectHash: guessSubjectHash,
      ip: typed.ip,
      since: guessSince.toISOString(),
      now: now.toISOString(),
      maxBySubject: MAX_FAILURES_PER_SUBJECT,
      maxByAddress: MAX_FAILURES_PER_ADDRESS,
      dlNumber: typed.dlNumber,
      lastName: typed.lastName,
    },
    // A sign-in's first statement: behind calls under way (decision 034).
    { opensCall: true },
  );
  if (!row) throw new Error('guess_student_sign_in answered no row');
  if (row.over_limit) throw tooManyGuesses(who, row.oldest_failure, now.getTime());
  if (row.id === null || row.first_name === null || row.last_name === null) return null;
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    paymentAt: timestampOrNull(row.payment_at),
    completedAt: timestampOrNull(row.completed_at),
  };
}

/** Deletes sign-in failures older than the window, the only place they count (decision 014). */
export async function purgeOldLoginFailures(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(loginFailures)
    .where(lt(loginFailures.createdAt, new Date(now.getTime() - LOGIN_WINDOW_MS)))
    .returning({ id: loginFailures.id });
  return purged.length;
}
