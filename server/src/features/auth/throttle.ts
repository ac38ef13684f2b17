import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { lastNameMatches } from '../../db/last-names.ts';
import { failedGuesses, students } from '../../db/schema.ts';
import { timestampOrNull } from '../../db/subquery-columns.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashToken } from '../../platform/tokens.ts';
import { AppError, tooManyRequests } from '../../plugins/errors.ts';
import type { Auth } from '../../plugins/session.ts';

/** Decision 005: at most 5 failed attempts per licence number or username per 15 minutes... */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_SUBJECT = 5;
/** ...plus a cap per address, high enough for a classroom or a library behind one address. */
export const MAX_FAILURES_PER_ADDRESS = 30;

/**
 * Whose guesses are counted: a student's licence number (sign-in, and registrations that hit an
 * existing enrolment: both reveal whether a licence and last name belong together, decision 004)
 * or a staff account.
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

/** The key of a subject's row in failed_guesses: a hash, as a licence number is personal data. */
export function throttleSubjectHash(scope: ThrottleScope, subject: string): string {
  return hashToken(`${scope}:${subject.toLowerCase()}`);
}

/** The key of an address's row in failed_guesses (its own prefix: never a subject's key). */
export function throttleAddressHash(ip: string): string {
  return hashToken(`address:${ip}`);
}

/** One guess's rows and moments, as SQL values. */
interface Guess {
  subject: string;
  address: string;
  /** Failures at or before this moment have left the window. */
  since: string;
  now: string;
}

function guessOf(clock: Clock, who: ThrottleSubject): Guess {
  const now = clock.now();
  return {
    subject: throttleSubjectHash(who.scope, who.subject),
    address: throttleAddressHash(who.ip),
    since: new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString(),
    now: now.toISOString(),
  };
}

/*
 * The rule, in one place. Each row of failed_guesses (a subject's, an address's) keeps the moments
 * of its failed guesses; those after `since` count. A guess is refused while its subject has
 * MAX_FAILURES_PER_SUBJECT counted or its address MAX_FAILURES_PER_ADDRESS. Every statement below
 * is built from these fragments. `g` is the row of failed_guesses a statement reads or writes.
 */

/** The row's failures inside the window, oldest first. */
const counted = (guess: Guess) =>
  sql`array(select f.at from unnest(g.failed_at) as f(at) where f.at > ${guess.since}::timestamptz order by f.at)`;

/** The failures a key has inside the window, as the statement's snapshot has them (0 without a row). */
const countedOf = (guess: Guess, key: string) =>
  sql`coalesce((select cardinality(${counted(guess)}) from ${failedGuesses} g where g.key_hash = ${key}), 0)`;

const subjectUnder = (count: SQL) => sql`${count} < ${MAX_FAILURES_PER_SUBJECT}`;
const addressUnder = (count: SQL) => sql`${count} < ${MAX_FAILURES_PER_ADDRESS}`;

/** On a key's existing row: its counted failures, then this guess's own (`excluded`, none or one). */
const keepCountedAndAdd = (guess: Guess) =>
  sql`on conflict (key_hash) do update set failed_at = ${counted(guess)} || excluded.failed_at`;

/**
 * The statement that starts a guess: the subject's row is inserted, or updated and so locked until
 * the guess's transaction ends, while the address is under its limit; the existing row only while
 * the subject is under its own. A row comes back only for a guess under both limits. Guesses of
 * one subject are thus counted one after another: a guess waits for the row a guess before it
 * holds, then reads its latest failures (a row updated by ON CONFLICT is the latest committed
 * version, whatever the statement's snapshot), so a burst of guesses sent at once cannot all be
 * checked before their failures are counted. `added` is what the guess records at once: none,
 * or this moment when it already failed.
 */
function startGuess(guess: Guess, added: SQL): SQL {
  return sql`insert into ${failedGuesses} as g (key_hash, failed_at)
    select ${guess.subject}, ${added} where ${addressUnder(countedOf(guess, guess.address))}
    ${keepCountedAndAdd(guess)} where ${subjectUnder(sql`cardinality(${counted(guess)})`)}
    returning g.key_hash`;
}

/** Records a failed guess on its subject's row and its address's. */
async function recordFailure(tx: Db, clock: Clock, guess: Guess): Promise<void> {
  const failedAt = sql`array[${clock.now().toISOString()}::timestamptz]`;
  // The subject's row first, as every guess locks it: no two guesses wait for each other's rows.
  await tx.execute(sql`insert into ${failedGuesses} as g (key_hash, failed_at)
    values (${guess.subject}, ${failedAt}), (${guess.address}, ${failedAt})
    ${keepCountedAndAdd(guess)}`);
}

/**
 * Runs one guess of a subject in a transaction that holds the subject's row (startGuess), so
 * parallel guesses are counted one after another and cannot all slip under the limit. A subject
 * or address over its limit gets 429 with Retry-After before the guess runs. The guess calls
 * `recordFailure()` when it fails; the failure commits with the transaction, so the guess must
 * return (not throw) and let the caller throw after the commit.
 */
export async function withGuessThrottle<T>(
  db: Db,
  clock: Clock,
  who: ThrottleSubject,
  guess: (tx: Db, recordFailure: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const values = guessOf(clock, who);
  return db.transaction(async (tx) => {
    const started = await selectRawRows(tx, startGuess(values, sql`'{}'::timestamptz[]`));
    if (started.length === 0) throw await tooManyGuesses(tx, who, values);
    return guess(tx, () => recordFailure(tx, clock, values));
  });
}

/**
 * For a statement that acts only while `who` is under both limits (a registration that finds no
 * enrolment to collide with, decision 031: it counts no failure, so it needs no lock): true while
 * under, as the statement's snapshot counts.
 */
export function underGuessLimits(clock: Clock, who: ThrottleSubject): SQL {
  const guess = guessOf(clock, who);
  return sql`(${subjectUnder(countedOf(guess, guess.subject))} and ${addressUnder(countedOf(guess, guess.address))})`;
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
  // Asked, not started: nothing is recorded unless the change is refused.
  const [limits] = await selectRawRows<{ under: boolean }>(
    db,
    sql`select ${underGuessLimits(clock, subject)} as under`,
  );
  if (limits?.under !== true) throw await tooManyGuesses(db, subject, guessOf(clock, subject));
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
 * The 429 for a subject or address over its limit: Retry-After runs until the oldest failure
 * counted against either leaves the window, when one more attempt is allowed.
 */
async function tooManyGuesses(db: Db, who: ThrottleSubject, guess: Guess): Promise<AppError> {
  const [row] = await selectRawRows<{ oldest: Date | string | null }>(
    db,
    sql`select min(f.at) as oldest from ${failedGuesses} g cross join unnest(g.failed_at) as f(at)
      where g.key_hash in (${guess.subject}, ${guess.address}) and f.at > ${guess.since}::timestamptz`,
  );
  const now = new Date(guess.now).getTime();
  const oldest = timestampOrNull(row?.oldest ?? null)?.getTime() ?? now;
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - now) / 1000));
  return tooManyRequests(
    who.tooManyMessage ?? 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
    retryAfterSeconds,
  );
}

/** What a student's sign-in guess answers: under the limits or not, and the enrolment found. */
interface StudentGuessRow extends Record<string, unknown> {
  under: boolean;
  id: number | null;
  first_name: string | null;
  last_name: string | null;
  payment_at: Date | string | null;
  completed_at: Date | string | null;
}

/**
 * A student's sign-in guess (the licence number as the registration stores it, the last name as
 * decision 064 compares it: any registered surname, whatever its accents and case), as
 * withGuessThrottle runs a guess but in one statement (decision 032: a thousand students may sign
 * in within a minute, and a transaction held a pool connection across its round trips): the
 * active enrolment, the guess started on the licence's row (startGuess: 429 past a limit), with
 * this moment added when no enrolment matched, and then on the address's row too.
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
  const guess = guessOf(clock, who);
  const failedNow = sql`array[${guess.now}::timestamptz]`;
  const [row] = await selectRawRows<StudentGuessRow>(
    db,
    sql`with student as (
        select s.id, s.first_name, s.last_name, s.payment_at, s.completed_at from ${students} s
        where s.dl_number = ${typed.dlNumber} and s.archived_at is null and ${lastNameMatches(sql`s.last_name`, typed.lastName)}
        limit 1
      ), started as (
        ${startGuess(guess, sql`case when exists (select 1 from student) then '{}'::timestamptz[] else ${failedNow} end`)}
      ), address as (
        insert into ${failedGuesses} as g (key_hash, failed_at)
        select ${guess.address}, ${failedNow} from started where not exists (select 1 from student)
        ${keepCountedAndAdd(guess)}
      )
      select exists (select 1 from started) as under, student.*
      from (select 1) as guessed left join student on true`,
  );
  if (!row?.under) throw await tooManyGuesses(db, who, guess);
  if (row.id === null || row.first_name === null || row.last_name === null) return null;
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    paymentAt: timestampOrNull(row.payment_at),
    completedAt: timestampOrNull(row.completed_at),
  };
}

/** Deletes the rows of failed_guesses whose failures have all left the window, the only place they count (decision 014). */
export async function purgeExpiredFailedGuesses(tx: Db, now: Date): Promise<number> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  const purged = await selectRawRows(
    tx,
    sql`delete from ${failedGuesses} g
      where not exists (select 1 from unnest(g.failed_at) as f(at) where f.at > ${since}::timestamptz)
      returning g.key_hash`,
  );
  return purged.length;
}
