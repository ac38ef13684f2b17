import { and, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { SessionUser } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { loginFailures, staff, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { hashToken } from '../../platform/tokens.ts';
import { AppError, tooManyRequests } from '../../plugins/errors.ts';
import type { Auth } from '../../plugins/session.ts';

/** Issue 2: at most 5 failed attempts per licence number or username per 15 minutes... */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_SUBJECT = 5;
/** ...plus a cap per address, high enough for a classroom or a library behind one address. */
export const MAX_FAILURES_PER_ADDRESS = 30;

type Scope = 'student' | 'admin';

const invalidLogin = () => new AppError(401, 'INVALID_LOGIN', 'Invalid username or password');

/** Licence numbers are compared as the registration stores them: upper case, no spaces or dashes. */
export function normaliseDlNumber(dlNumber: string): string {
  return dlNumber.toUpperCase().replace(/[\s-]/g, '');
}

function subjectHash(scope: Scope, subject: string): string {
  // A licence number is personal data: the throttle table keeps only its hash.
  return hashToken(`${scope}:${subject.toLowerCase()}`);
}

async function assertNotThrottled(db: Db, clock: Clock, scope: Scope, subject: string, ip: string): Promise<void> {
  const since = new Date(clock.now().getTime() - LOGIN_WINDOW_MS);
  const subjectMatches = and(
    eq(loginFailures.scope, scope),
    eq(loginFailures.subjectHash, subjectHash(scope, subject)),
  );
  const [row] = await db
    .select({
      bySubject: count(sql`case when ${subjectMatches} then 1 end`),
      byAddress: count(sql`case when ${loginFailures.ip} = ${ip} then 1 end`),
    })
    .from(loginFailures)
    .where(and(gt(loginFailures.createdAt, since), or(subjectMatches, eq(loginFailures.ip, ip))));
  if ((row?.bySubject ?? 0) >= MAX_FAILURES_PER_SUBJECT || (row?.byAddress ?? 0) >= MAX_FAILURES_PER_ADDRESS) {
    throw tooManyRequests('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  }
}

async function recordFailure(db: Db, clock: Clock, scope: Scope, subject: string, ip: string): Promise<void> {
  await db
    .insert(loginFailures)
    .values({ scope, subjectHash: subjectHash(scope, subject), ip, createdAt: clock.now() });
}

function toStudentUser(student: typeof students.$inferSelect): SessionUser {
  return {
    id: student.id,
    type: 'student',
    name: `${student.firstName} ${student.lastName}`,
    court_id: null,
    payment_at: student.paymentAt?.toISOString() ?? null,
    completed_at: student.completedAt?.toISOString() ?? null,
  };
}

function toStaffUser(member: typeof staff.$inferSelect): SessionUser {
  return {
    id: member.id,
    type: member.role,
    name: member.name,
    court_id: member.courtId,
    payment_at: null,
    completed_at: null,
  };
}

/**
 * Runs one sign-in attempt for a subject under a transaction-scoped advisory lock, so parallel
 * guesses are counted one after another and cannot all slip under the limit. The failure is
 * recorded in the same transaction; the caller throws after it commits.
 */
async function attemptSignIn<T>(db: Db, lockKey: string, attempt: (tx: Db) => Promise<T | null>): Promise<T | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    return attempt(tx as unknown as Db);
  });
}

/**
 * Spec 2: a student signs in with last name and licence number. "No such student" and
 * "wrong licence number" get the same answer.
 */
export async function authenticateStudent(
  db: Db,
  clock: Clock,
  input: { lastName: string; dlNumber: string; ip: string },
): Promise<SessionUser> {
  const dlNumber = normaliseDlNumber(input.dlNumber);
  const student = await attemptSignIn(db, subjectHash('student', dlNumber), async (tx) => {
    await assertNotThrottled(tx, clock, 'student', dlNumber, input.ip);
    const [found] = await tx
      .select()
      .from(students)
      .where(
        and(
          eq(students.dlNumber, dlNumber),
          isNull(students.archivedAt),
          sql`lower(${students.lastName}) = lower(${input.lastName.trim()})`,
        ),
      )
      .limit(1);
    if (!found) await recordFailure(tx, clock, 'student', dlNumber, input.ip);
    return found ?? null;
  });
  if (!student) throw invalidLogin();
  return toStudentUser(student);
}

// Verified against when the username is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Spec 2: an admin signs in with username or email and password. Failures count against the
 * account (username and email share one limit), or against the typed name when there is none.
 */
export async function authenticateStaff(
  db: Db,
  clock: Clock,
  input: { username: string; password: string; ip: string },
): Promise<SessionUser> {
  const login = input.username.trim().toLowerCase();
  const [member] = await db
    .select()
    .from(staff)
    .where(or(sql`lower(${staff.username}) = ${login}`, sql`lower(${staff.email}) = ${login}`))
    .limit(1);
  const subject = member ? `account:${String(member.id)}` : `login:${login}`;
  dummyHash ??= hashPassword('not-a-real-password');
  const fallbackHash = await dummyHash;
  const signedIn = await attemptSignIn(db, subjectHash('admin', subject), async (tx) => {
    await assertNotThrottled(tx, clock, 'admin', subject, input.ip);
    const valid = await verifyPassword(member?.passwordHash ?? fallbackHash, input.password);
    if (!member || !valid || member.disabledAt !== null) {
      await recordFailure(tx, clock, 'admin', subject, input.ip);
      return null;
    }
    return member;
  });
  if (!signedIn) throw invalidLogin();
  return toStaffUser(signedIn);
}

/** The signed-in user's display copy (spec 3), fresh from the database. */
export async function getSessionUser(db: Db, auth: Auth): Promise<SessionUser> {
  if (auth.kind === 'student') {
    const [student] = await db.select().from(students).where(eq(students.id, auth.studentId));
    if (!student) throw new AppError(401, 'UNAUTHENTICATED', 'Please sign in.');
    return toStudentUser(student);
  }
  const [member] = await db.select().from(staff).where(eq(staff.id, auth.staffId));
  if (!member) throw new AppError(401, 'UNAUTHENTICATED', 'Please sign in.');
  return toStaffUser(member);
}
