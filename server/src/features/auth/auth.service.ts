import { or, sql } from 'drizzle-orm';
import type { SessionUser } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { staff, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { AppError } from '../../plugins/errors.ts';
import type { Auth, SessionPerson } from '../../plugins/session.ts';
import { wasClosedByRefund } from '../payments/payments.queries.ts';
import { guessStudentSignIn, staffAccountThrottleSubject, withGuessThrottle } from './throttle.ts';

const invalidLogin = () => new AppError('INVALID_LOGIN', 'Invalid username or password');

type StudentUserRow = Pick<typeof students.$inferSelect, 'id' | 'firstName' | 'lastName' | 'paymentAt' | 'completedAt'>;
type StaffUserRow = Pick<typeof staff.$inferSelect, 'id' | 'role' | 'name' | 'courtId'>;

/** The one shape of "who is signed in" (the sign-in answers and /api/me). */
function presentUser(user: {
  id: number;
  type: SessionUser['type'];
  courtId: number | null;
  person: SessionPerson;
}): SessionUser {
  return {
    id: user.id,
    type: user.type,
    name: user.person.name,
    court_id: user.courtId,
    payment_at: user.person.paymentAt?.toISOString() ?? null,
    completed_at: user.person.completedAt?.toISOString() ?? null,
    ...(user.person.language === undefined ? {} : { language: user.person.language }),
  };
}

function toStudentUser(student: StudentUserRow): SessionUser {
  return presentUser({
    id: student.id,
    type: 'student',
    courtId: null,
    person: {
      name: `${student.firstName} ${student.lastName}`,
      paymentAt: student.paymentAt,
      completedAt: student.completedAt,
    },
  });
}

function toStaffUser(member: StaffUserRow): SessionUser {
  return presentUser({
    id: member.id,
    type: member.role,
    courtId: member.courtId,
    person: { name: member.name, paymentAt: null, completedAt: null },
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
  // Normalised by the contract (driverLicenseNumber), as the registration stores it.
  const dlNumber = input.dlNumber;
  const student = await guessStudentSignIn(db, clock, { dlNumber, lastName: input.lastName.trim(), ip: input.ip });
  if (!student) {
    // Decision 058: a course closed by a full refund is named, so the student knows why.
    if (await wasClosedByRefund(db, { dlNumber, lastName: input.lastName.trim() })) {
      throw new AppError(
        'COURSE_REFUNDED',
        'This course was closed when its payment was refunded. To take the course again, register again.',
      );
    }
    throw invalidLogin();
  }
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
  const subject = member ? staffAccountThrottleSubject(member.id) : `login:${login}`;
  dummyHash ??= hashPassword('not-a-real-password');
  const fallbackHash = await dummyHash;
  const signedIn = await withGuessThrottle(
    db,
    clock,
    { scope: 'admin', subject, ip: input.ip },
    async (_tx, recordFailure) => {
      const valid = await verifyPassword(member?.passwordHash ?? fallbackHash, input.password);
      if (!member || !valid || member.disabledAt !== null) {
        await recordFailure();
        return null;
      }
      return member;
    },
  );
  if (!signedIn) throw invalidLogin();
  return toStaffUser(signedIn);
}

/** The signed-in user's display copy (spec 3), as the session lookup read it this request. */
export function getSessionUser(auth: Auth): SessionUser {
  // Read with the session itself (plugins/session.ts): /api/me costs no second query (decision 019).
  return auth.kind === 'student'
    ? presentUser({ id: auth.studentId, type: 'student', courtId: null, person: auth.person })
    : presentUser({
        id: auth.staffId,
        type: auth.role,
        courtId: auth.courtId,
        person: auth.person,
      });
}
