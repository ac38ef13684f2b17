import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { students } from '../db/schema.ts';
import { forbidden, notFound } from './errors.ts';
import type { Auth } from './session.ts';

/**
 * A student acts on their own records only (403 for someone else's). The spec's calls
 * carry the student's id in the path or body; it must be the signed-in student's.
 */
export function assertOwnRecord(auth: Extract<Auth, { kind: 'student' }>, studentId: number | undefined): void {
  if (studentId !== undefined && studentId !== auth.studentId) {
    throw forbidden('You can only see and change your own course records.');
  }
}

/**
 * Who may see a student's records: the student, or staff whose scope covers the student's court
 * (an admin or clerk limited to one court sees only that court's students). Everyone else is told the
 * record does not exist, so ids cannot be probed.
 */
export function canSeeStudent(auth: Auth, student: { id: number; courtId: number }): boolean {
  if (auth.kind === 'student') return auth.studentId === student.id;
  return auth.courtId === null || auth.courtId === student.courtId;
}

/**
 * The student a call is about, if the caller may see them (canSeeStudent); otherwise 404, whether
 * the student is missing or out of the caller's sight, so ids cannot be probed. The one place a
 * route or service loads a student by id for someone else to act on.
 */
export async function getVisibleStudent(
  db: Db,
  auth: Auth,
  studentId: number,
  notFoundMessage = 'No such student.',
): Promise<{ id: number; courtId: number; completedAt: Date | null }> {
  const [student] = await db
    .select({ id: students.id, courtId: students.courtId, completedAt: students.completedAt })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student || !canSeeStudent(auth, student)) throw notFound(notFoundMessage);
  return student;
}

/**
 * getVisibleStudent's check, for a caller who needs nothing of the student's row: the one way a
 * route asks whether the caller may see a student. A student asking about themself needs no read,
 * since their session is their active enrolment's; anyone else is checked against the
 * row (404 when they may not, with `notFoundMessage`).
 */
export async function assertMaySeeStudent(
  db: Db,
  auth: Auth,
  studentId: number,
  notFoundMessage?: string,
): Promise<void> {
  if (auth.kind === 'student' && auth.studentId === studentId) return;
  await getVisibleStudent(db, auth, studentId, notFoundMessage);
}
