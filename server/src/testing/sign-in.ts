import type { FastifyInstance } from 'fastify';
import { sessionCookieFrom } from './build-test-app.ts';

let addressSequence = 0;

/**
 * A client address no other test of the file has used, so that one test's failed sign-ins
 * never count against another's per-address cap (pass it as inject's `remoteAddress`).
 */
export function uniqueAddress(): string {
  addressSequence += 1;
  return `10.0.${String(Math.floor(addressSequence / 250))}.${String((addressSequence % 250) + 1)}`;
}

/** Signs a student in as the login page does and returns the session as a Cookie header value. */
export async function signInStudent(
  app: FastifyInstance,
  student: { lastName: string; dlNumber: string },
  remoteAddress = uniqueAddress(),
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/login/student',
    payload: { last_name: student.lastName, dl_number: student.dlNumber },
    remoteAddress,
  });
  return sessionCookieFrom(response);
}

/** Signs a staff member in as the admin login page does and returns the session as a Cookie header value. */
export async function signInStaff(
  app: FastifyInstance,
  member: { username: string; password: string },
  remoteAddress = uniqueAddress(),
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/login/admin',
    payload: { username: member.username, password: member.password },
    remoteAddress,
  });
  return sessionCookieFrom(response);
}
