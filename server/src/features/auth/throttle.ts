import { and, count, eq, gt, lt, min, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { prepareStatement } from '../../db/raw-rows.ts';
import { loginFailures } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashToken } from '../../platform/tokens.ts';
import { tooManyRequests } from '../../plugins/errors.ts';

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

/** The failures that count against `who` (the `guess…` placeholders, guessValues): by subject, by address. */
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
    // When the oldest counted failure leaves the window, one more attempt is allowed.
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - now) / 1000));
    throw tooManyRequests(
      who.tooManyMessage ?? 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
      retryAfterSeconds,
    );
  }
}

/** Deletes sign-in failures older than the window, the only place they count (decision 014). */
export async function purgeOldLoginFailures(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(loginFailures)
    .where(lt(loginFailures.createdAt, new Date(now.getTime() - LOGIN_WINDOW_MS)))
    .returning({ id: loginFailures.id });
  return purged.length;
}
