import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { StaffRole } from '@ts/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { prepareOnce } from '../db/prepared.ts';
import { sessions, staff, students } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { createToken, hashToken } from '../platform/tokens.ts';

export const SESSION_COOKIE = 'ts_session';
const SESSION_HOURS = { student: 12, staff: 8 } as const;

/**
 * A session's token says whose it is: a student's starts with `s.`, a staff member's with `a.`
 * (neither appears in base64url), so the lookup reads only the owner's table (decision 038: the
 * join to the other table made every lookup dearer on PostgreSQL). The token is still random
 * past its prefix, and only its hash is stored; a prefix that lies finds no session.
 */
const TOKEN_PREFIX = { student: 's.', staff: 'a.' } as const;

/** The rules profile version a student's enrolment is pinned to (decision 012). */
export interface ProfileRef {
  id: string;
  version: number;
}

/** What /api/me shows of the caller, read with the session (no second query). */
export interface SessionPerson {
  name: string;
  paymentAt: Date | null;
  completedAt: Date | null;
  /** A student's stored language (decision 056); staff have none. */
  language?: 'en' | 'es';
}

export type Auth =
  | {
      kind: 'student';
      tokenHash: string;
      studentId: number;
      paid: boolean;
      profile: ProfileRef;
      /** Raised by the database on every change to the student's completions (decision 019). */
      progressVersion: number;
      person: SessionPerson;
    }
  | {
      kind: 'staff';
      tokenHash: string;
      staffId: number;
      role: StaffRole;
      courtId: number | null;
      person: SessionPerson;
    };

export type SessionOwner = { studentId: number } | { staffId: number };

/** Starts a new session (a new id at every sign-in) and sets its cookie. */
export async function startSession(
  db: Db,
  clock: Clock,
  config: Config,
  reply: FastifyReply,
  owner: SessionOwner,
): Promise<void> {
  const token = `${'studentId' in owner ? TOKEN_PREFIX.student : TOKEN_PREFIX.staff}${createToken()}`;
  const hours = 'studentId' in owner ? SESSION_HOURS.student : SESSION_HOURS.staff;
  const expiresAt = new Date(clock.now().getTime() + hours * 3600_000);
  await prepareOnce(db, 'insert_session', (database) =>
    database
      .insert(sessions)
      .values({
        tokenHash: sql.placeholder('tokenHash'),
        expiresAt: sql.placeholder('expiresAt'),
        studentId: sql.placeholder('studentId'),
        staffId: sql.placeholder('staffId'),
      })
      .prepare('insert_session'),
  ).execute({
    tokenHash: hashToken(token),
    expiresAt,
    studentId: 'studentId' in owner ? owner.studentId : null,
    staffId: 'staffId' in owner ? owner.staffId : null,
  });
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    expires: expiresAt,
  });
}

export async function endSession(db: Db, clock: Clock, tokenHash: string): Promise<void> {
  await db.update(sessions).set({ endedAt: clock.now() }).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends every open session of a student, for example when their enrolment is archived. */
export async function endStudentSessions(db: Db, clock: Clock, studentId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: clock.now() })
    .where(and(eq(sessions.studentId, studentId), isNull(sessions.endedAt)));
}

/**
 * Ends every open session of a staff member (a disabled account, a new password), except the
 * one given: the session that changed its own password stays signed in.
 */
export async function endStaffSessions(
  db: Db,
  clock: Clock,
  staffId: number,
  options: { exceptTokenHash?: string } = {},
): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: clock.now() })
    .where(
      and(
        eq(sessions.staffId, staffId),
        isNull(sessions.endedAt),
        options.exceptTokenHash === undefined ? undefined : ne(sessions.tokenHash, options.exceptTokenHash),
      ),
    );
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** An open, unexpired session with this token hash. */
function openSession() {
  return and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    isNull(sessions.endedAt),
    gt(sessions.expiresAt, sql.placeholder('now')),
  );
}

/**
 * The session lookups run on every signed-in request, so each is built once per database as a
 * prepared statement (drizzle's query building cost more than the query itself). A student's one
 * round trip also brings what most calls need next: whether they paid, their rules profile and
 * progress version, and their name for /api/me (decision 019). (The course content's
 * version is heard by every connection: decision 038.)
 */
function prepareStudentSessionLookup(db: Db) {
  return (
    db
      .select({
        studentId: students.id,
        paymentAt: students.paymentAt,
        profileId: students.rulesProfileId,
        profileVersion: students.rulesProfileVersion,
        progressVersion: students.progressVersion,
        firstName: students.firstName,
        lastName: students.lastName,
        completedAt: students.completedAt,
        language: students.language,
      })
      .from(sessions)
      .leftJoin(students, eq(students.id, sessions.studentId))
      // The session of an archived enrolment is nobody's: asked here, the row carries a timestamp
      // fewer. (Not in the join's condition, and not an inner join: there PostgreSQL's generic plan
      // read every active student through the partial licence index.)
      .where(and(openSession(), isNull(students.archivedAt)))
      .limit(1)
      .prepare('find_student_session')
  );
}

/** A staff member's session: their role, court and name; a disabled account's session is nobody's. */
function prepareStaffSessionLookup(db: Db) {
  return db
    .select({
      staffId: staff.id,
      role: staff.role,
      courtId: staff.courtId,
      name: staff.name,
    })
    .from(sessions)
    .leftJoin(staff, eq(staff.id, sessions.staffId))
    .where(and(openSession(), isNull(staff.disabledAt)))
    .limit(1)
    .prepare('find_staff_session');
}

// As text: the driver's own formatting of a Date (local offsets, padding) cost more than the
// comparison it is for.
async function findStudentAuth(db: Db, tokenHash: string, now: string): Promise<Auth | null> {
  const [row] = await prepareOnce(db, 'find_student_session', prepareStudentSessionLookup).execute({ tokenHash, now });
  if (
    !row ||
    row.studentId === null ||
    row.profileId === null ||
    row.profileVersion === null ||
    row.progressVersion === null
  ) {
    return null;
  }
  return {
    kind: 'student',
    tokenHash,
    studentId: row.studentId,
    paid: row.paymentAt !== null,
    profile: { id: row.profileId, version: row.profileVersion },
    progressVersion: row.progressVersion,
    person: {
      name: `${row.firstName ?? ''} ${row.lastName ?? ''}`,
      paymentAt: row.paymentAt,
      completedAt: row.completedAt,
      ...(row.language === null ? {} : { language: row.language }),
    },
  };
}

async function findStaffAuth(db: Db, tokenHash: string, now: string): Promise<Auth | null> {
  const [row] = await prepareOnce(db, 'find_staff_session', prepareStaffSessionLookup).execute({ tokenHash, now });
  if (!row || row.staffId === null || row.role === null) return null;
  return {
    kind: 'staff',
    tokenHash,
    staffId: row.staffId,
    role: row.role,
    courtId: row.courtId,
    person: { name: row.name ?? '', paymentAt: null, completedAt: null },
  };
}

/**
 * Who is calling: the session behind the cookie, if it is open, unexpired, and its owner is
 * still an active enrolment or an enabled staff account. One query, never cached: a sign-out, a
 * disabled account or an archived enrolment takes effect on the next request on every instance.
 */
export async function findAuth(db: Db, clock: Clock, request: FastifyRequest): Promise<Auth | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const now = clock.now().toISOString();
  if (token.startsWith(TOKEN_PREFIX.student)) return findStudentAuth(db, tokenHash, now);
  if (token.startsWith(TOKEN_PREFIX.staff)) return findStaffAuth(db, tokenHash, now);
  // Every session's token carries its owner's prefix (decision 038): one without is nobody's.
  return null;
}

/** Deletes sessions that ended or expired (the retention job, decision 014); returns how many. */
export async function purgeDeadSessions(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(sessions)
    .where(or(isNotNull(sessions.endedAt), lt(sessions.expiresAt, now)))
    .returning({ tokenHash: sessions.tokenHash });
  return purged.length;
}
