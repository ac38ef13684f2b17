import { forbidden } from './errors.ts';
import type { Auth } from './session.ts';

/**
 * A student acts on their own records only (issue 4: 403 for someone else's). The spec's calls
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
