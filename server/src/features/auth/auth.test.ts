import { eq, sql } from 'drizzle-orm';
import { PRODUCTION_WITHOUT_SERVICES } from '../../config.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, staff, students } from '../../db/schema.ts';
import { hashToken } from '../../platform/tokens.ts';
import { throttleAddressHash, withGuessThrottle } from './throttle.ts';
import { buildTestApp, sessionCookieFrom, type TestApp } from '../../testing/build-test-app.ts';
import { createStaff, createStudent, getCourtId, markStudentPaid } from '../../testing/factories.ts';
import { selectRows } from '../../testing/rows.ts';
import { signInStaff, signInStudent, uniqueAddress } from '../../testing/sign-in.ts';

const HOUR = 3600_000;
const MINUTE = 60_000;
const INVALID_LOGIN = {
  error: { code: 'INVALID_LOGIN', message: 'Invalid username or password', requestId: expect.any(String) as string },
};
const TOO_MANY = {
  error: {
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
    requestId: expect.any(String) as string,
  },
};
const UNAUTHENTICATED = {
  error: { code: 'UNAUTHENTICATED', message: 'Please sign in.', requestId: expect.any(String) as string },
};

describe('auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const studentLogin = (last_name: string, dl_number: string, remoteAddress = uniqueAddress()) =>
    t.app.inject({ method: 'POST', url: '/api/login/student', payload: { last_name, dl_number }, remoteAddress });
  const adminLogin = (username: string, password: string, remoteAddress = uniqueAddress()) =>
    t.app.inject({ method: 'POST', url: '/api/login/admin', payload: { username, password }, remoteAddress });
  const me = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/me', ...(cookie ? { headers: { cookie } } : {}) });

  describe('student sign-in (spec 2: last name and driver’s license number)', () => {
    it('signs a student in and answers SUCCESS with the stored-user display copy', async () => {
      const student = await createStudent(t.db, { firstName: 'Ana' });
      const paidAt = new Date('2026-11-20T10:30:00Z');
      await markStudentPaid(t.db, student.id, paidAt);

      const response = await studentLogin(student.lastName, student.dlNumber);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'SUCCESS',
        user: {
          id: student.id,
          type: 'student',
          name: `Ana ${student.lastName}`,
          court_id: null,
          payment_at: paidAt.toISOString(),
          completed_at: null,
        },
      });
    });

    it('shows when the course was completed', async () => {
      const completedAt = new Date('2026-11-21T08:00:00Z');
      const student = await createStudent(t.db, { paymentAt: new Date('2026-11-01T00:00:00Z'), completedAt });
      const response = await studentLogin(student.lastName, student.dlNumber);
      expect(response.json().user.completed_at).toBe(completedAt.toISOString());
    });

    it('sets an httpOnly, SameSite=Lax session cookie that lasts 12 hours and is not Secure over http', async () => {
      const student = await createStudent(t.db);
      const response = await studentLogin(student.lastName, student.dlNumber);

      const cookie = response.cookies.find((c) => c.name === 'ts_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.value.length).toBeGreaterThanOrEqual(40);
      expect(cookie?.expires).toEqual(new Date(t.clock.now().getTime() + 12 * HOUR));
    });

    it('matches the last name whatever its case and surrounding spaces', async () => {
      const student = await createStudent(t.db, { lastName: 'McArthur' });
      for (const typed of ['mcarthur', 'MCARTHUR', '  McArthur  ']) {
        const response = await studentLogin(typed, student.dlNumber);
        expect(response.statusCode, typed).toBe(200);
        expect(response.json().user.id).toBe(student.id);
      }
    });

    it('matches the last name without its accents, hyphens or spaces, or by any one of its surnames (decision 064)', async () => {
      const student = await createStudent(t.db, { lastName: 'Hernández García' });
      for (const typed of [
        'Hernandez Garcia',
        'hernández garcía',
        'Hernández',
        'Hernandez',
        'garcia',
        'Hernández-García',
        'HernandezGarcia',
      ]) {
        const response = await studentLogin(typed, student.dlNumber);
        expect(response.statusCode, typed).toBe(200);
        expect(response.json().user.id).toBe(student.id);
      }
    });

    it('refuses part of a surname, and any last name with another licence number (decision 064)', async () => {
      const student = await createStudent(t.db, { lastName: 'Hernández García' });
      for (const typed of ['Hernan', 'Garc']) {
        const response = await studentLogin(typed, student.dlNumber);
        expect(response.statusCode, typed).toBe(401);
        expect(response.json()).toEqual(INVALID_LOGIN);
      }
      expect((await studentLogin('Hernandez', 'Z9999997')).json()).toEqual(INVALID_LOGIN);
    });

    it('matches the licence number typed in lower case, with spaces or dashes', async () => {
      const student = await createStudent(t.db, { dlNumber: 'B7654321' });
      for (const typed of ['b7654321', 'B765-4321', ' B 765 4321 ']) {
        const response = await studentLogin(student.lastName, typed);
        expect(response.statusCode, typed).toBe(200);
        expect(response.json().user.id).toBe(student.id);
      }
    });

    it('gives an unknown student, a wrong licence number and a wrong last name the identical 401', async () => {
      const student = await createStudent(t.db);
      const unknown = await studentLogin('Nobody', 'Z9999999');
      const wrongLicence = await studentLogin(student.lastName, 'Z9999998');
      const wrongName = await studentLogin('Someone Else', student.dlNumber);

      for (const response of [unknown, wrongLicence, wrongName]) {
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toContain('application/json');
        expect(response.json()).toEqual(INVALID_LOGIN);
        expect(response.cookies.find((c) => c.name === 'ts_session')).toBeUndefined();
      }
      // Byte for byte, but for each request's own id (decision 060).
      const withoutId = (response: typeof unknown) =>
        response.body.replace(String(response.headers['x-request-id']), '');
      expect(withoutId(wrongLicence)).toBe(withoutId(unknown));
      expect(withoutId(wrongName)).toBe(withoutId(unknown));
    });

    it('does not let an archived enrolment sign in', async () => {
      const archived = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
      const response = await studentLogin(archived.lastName, archived.dlNumber);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_LOGIN);
    });

    it('signs in to the new enrolment when the same driver has an archived one', async () => {
      const archived = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
      const current = await createStudent(t.db, {
        lastName: archived.lastName,
        dlNumber: archived.dlNumber,
        email: `again.${archived.email}`,
      });
      const response = await studentLogin(archived.lastName, archived.dlNumber);
      expect(response.statusCode).toBe(200);
      expect(response.json().user.id).toBe(current.id);
    });

    it.each([
      [{}, ['last_name', 'dl_number']],
      [{ last_name: 'Rivera' }, ['dl_number']],
      [{ dl_number: 'S1234567' }, ['last_name']],
      [{ last_name: '   ', dl_number: 'S1234567' }, ['last_name']],
    ])('refuses the incomplete form %j with a 400 naming the missing fields', async (payload, missing) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/login/student', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
      expect(
        response
          .json()
          .error.fields.map((f: { field: string }) => f.field)
          .sort(),
      ).toEqual([...missing].sort());
    });
  });

  describe('staff sign-in (spec 2: username or email and password)', () => {
    it('signs staff in by username and answers with their role as the user type', async () => {
      const member = await createStaff(t.db, { role: 'super_admin' });
      const response = await adminLogin(member.username, member.password);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'SUCCESS',
        user: {
          id: member.id,
          type: 'super_admin',
          name: expect.any(String) as string,
          court_id: null,
          payment_at: null,
          completed_at: null,
        },
      });
      expect(sessionCookieFrom(response)).toMatch(/^ts_session=/);
    });

    it('signs staff in by email, whatever its case', async () => {
      const member = await createStaff(t.db, { role: 'clerk' });
      const response = await adminLogin(member.email.toUpperCase(), member.password);
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: member.id, type: 'clerk' });
    });

    it('signs staff in by username whatever its case', async () => {
      const member = await createStaff(t.db);
      const response = await adminLogin(` ${member.username.toUpperCase()} `, member.password);
      expect(response.statusCode).toBe(200);
      expect(response.json().user.id).toBe(member.id);
    });

    it('gives a court-limited admin their court_id (spec 3)', async () => {
      const courtId = await getCourtId(t.db, 2);
      const member = await createStaff(t.db, { role: 'admin', courtId });
      const response = await adminLogin(member.username, member.password);
      expect(response.json().user).toMatchObject({ type: 'admin', court_id: courtId });
    });

    it('sets an 8-hour httpOnly SameSite=Lax session cookie', async () => {
      const member = await createStaff(t.db);
      const response = await adminLogin(member.username, member.password);
      const cookie = response.cookies.find((c) => c.name === 'ts_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.expires).toEqual(new Date(t.clock.now().getTime() + 8 * HOUR));
    });

    it('refuses a wrong password and an unknown username with the same 401 as students get', async () => {
      const member = await createStaff(t.db);
      const wrongPassword = await adminLogin(member.username, 'not the password');
      const unknown = await adminLogin('no-such-admin', member.password);
      for (const response of [wrongPassword, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(INVALID_LOGIN);
        expect(response.cookies).toEqual([]);
      }
    });

    it('refuses a disabled account even with the right password', async () => {
      const member = await createStaff(t.db, { disabledAt: new Date('2026-11-01T00:00:00Z') });
      const response = await adminLogin(member.username, member.password);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_LOGIN);
    });

    it('refuses a form without a password with a 400', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/login/admin', payload: { username: 'x' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: [{ field: 'password' }] });
    });

    it('does not let a student’s credentials open a staff session, nor the reverse', async () => {
      const student = await createStudent(t.db);
      const member = await createStaff(t.db);
      expect((await adminLogin(student.lastName, student.dlNumber)).statusCode).toBe(401);
      expect((await studentLogin(member.username, member.password)).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('gives a new session id at every sign-in, and each one works', async () => {
      const student = await createStudent(t.db);
      const first = await signInStudent(t.app, student);
      const second = await signInStudent(t.app, student);
      expect(first).not.toBe(second);
      expect((await me(first)).statusCode).toBe(200);
      expect((await me(second)).statusCode).toBe(200);
    });

    it('keeps only a hash of the session token in the database', async () => {
      const student = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);
      const token = cookie.slice('ts_session='.length);
      const rows = await selectRows(t.db, sql`select * from sessions where student_id = ${student.id}`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('starts a student’s token with s. and a staff member’s with a., and a token under the other prefix finds nothing', async () => {
      const studentCookie = await signInStudent(t.app, await createStudent(t.db));
      const staffCookie = await signInStaff(t.app, await createStaff(t.db));
      expect(studentCookie).toMatch(/^ts_session=s\.[\w-]{43}$/);
      expect(staffCookie).toMatch(/^ts_session=a\.[\w-]{43}$/);
      // The same secret under the other kind's prefix is another token, whose hash no session has.
      expect((await me(studentCookie.replace('=s.', '=a.'))).statusCode).toBe(401);
      expect((await me(staffCookie.replace('=a.', '=s.'))).statusCode).toBe(401);
      expect((await me(studentCookie.replace('=s.', '='))).statusCode).toBe(401);
    });

    it('refuses a session whose token carries no owner’s prefix, a student’s or staff’s', async () => {
      const student = await createStudent(t.db);
      const member = await createStaff(t.db, { role: 'clerk' });
      const expiresAt = new Date(t.clock.now().getTime() + HOUR);
      await t.db.insert(sessions).values([
        { tokenHash: hashToken('unprefixed-student-token'), studentId: student.id, expiresAt },
        { tokenHash: hashToken('unprefixed-staff-token'), staffId: member.id, expiresAt },
      ]);
      expect((await me('ts_session=unprefixed-student-token')).statusCode).toBe(401);
      expect((await me('ts_session=unprefixed-staff-token')).statusCode).toBe(401);
    });

    it('answers /api/me with the signed-in student, fresh from the database', async () => {
      const student = await createStudent(t.db, { firstName: 'Lee' });
      const cookie = await signInStudent(t.app, student);
      const paidAt = new Date('2026-11-22T14:00:00Z');
      await markStudentPaid(t.db, student.id, paidAt);

      const response = await me(cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: {
          id: student.id,
          type: 'student',
          name: `Lee ${student.lastName}`,
          court_id: null,
          payment_at: paidAt.toISOString(),
          completed_at: null,
          // The student's stored language (decision 056).
          language: 'en',
        },
      });
    });

    it('answers /api/me with the signed-in staff member', async () => {
      const member = await createStaff(t.db, { role: 'clerk' });
      const cookie = await signInStaff(t.app, member);
      const response = await me(cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: member.id, type: 'clerk' });
    });

    it('answers /api/me with a JSON 401 without a session or with a made-up one', async () => {
      for (const response of [await me(), await me('ts_session=made-up-token'), await me('ts_session=')]) {
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toContain('application/json');
        expect(response.json()).toEqual(UNAUTHENTICATED);
      }
    });

    it('signs out with a 204, clears the cookie and ends the session on the server', async () => {
      const student = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);

      const response = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const cleared = response.cookies.find((c) => c.name === 'ts_session');
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
      // The browser could keep the old cookie: the server must refuse it anyway.
      expect((await me(cookie)).statusCode).toBe(401);
      const [row] = await t.db.select().from(sessions).where(eq(sessions.studentId, student.id));
      expect(row?.endedAt).toEqual(t.clock.now());
    });

    it('signs out with a 204 when there is no session', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/logout' });
      expect(response.statusCode).toBe(204);
    });

    it('ends only the session that signs out, not the student’s other sessions', async () => {
      const student = await createStudent(t.db);
      const phone = await signInStudent(t.app, student);
      const laptop = await signInStudent(t.app, student);
      await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: phone } });
      expect((await me(phone)).statusCode).toBe(401);
      expect((await me(laptop)).statusCode).toBe(200);
    });

    it('ends a student session after 12 hours', async () => {
      const student = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);
      t.clock.advance(12 * HOUR - MINUTE);
      expect((await me(cookie)).statusCode).toBe(200);
      t.clock.advance(2 * MINUTE);
      expect((await me(cookie)).statusCode).toBe(401);
    });

    it('ends a staff session after 8 hours', async () => {
      const member = await createStaff(t.db);
      const cookie = await signInStaff(t.app, member);
      t.clock.advance(8 * HOUR - MINUTE);
      expect((await me(cookie)).statusCode).toBe(200);
      t.clock.advance(2 * MINUTE);
      expect((await me(cookie)).statusCode).toBe(401);
    });

    it('stops a staff session at once when the account is disabled', async () => {
      const member = await createStaff(t.db);
      const cookie = await signInStaff(t.app, member);
      await t.db.update(staff).set({ disabledAt: t.clock.now() }).where(eq(staff.id, member.id));
      expect((await me(cookie)).statusCode).toBe(401);
    });

    it('stops a student session at once when the enrolment is archived', async () => {
      const student = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);
      await t.db.update(students).set({ archivedAt: t.clock.now() }).where(eq(students.id, student.id));
      expect((await me(cookie)).statusCode).toBe(401);
    });
  });

  describe('sign-in throttling (at most 5 failures per licence number or username in 15 minutes)', () => {
    it('refuses the 6th attempt for a licence number with a 429, even with the right last name', async () => {
      const student = await createStudent(t.db);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await studentLogin(`Wrong${String(attempt)}`, student.dlNumber);
        expect(response.statusCode, `attempt ${String(attempt)}`).toBe(401);
      }

      const sixth = await studentLogin(student.lastName, student.dlNumber);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.headers['content-type']).toContain('application/json');
      expect(sixth.json()).toEqual(TOO_MANY);
      expect(sixth.cookies).toEqual([]);
      // The first failure leaves the 15-minute window in 15 minutes (the test clock stands still).
      expect(sixth.headers['retry-after']).toBe('900');
    });

    it('still counts a wrong last name as a failed guess when the right one has accents (decision 064)', async () => {
      const student = await createStudent(t.db, { lastName: 'Núñez Peña' });
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect((await studentLogin('Nune', student.dlNumber)).statusCode, `attempt ${String(attempt)}`).toBe(401);
      }
      expect((await studentLogin('Nunez', student.dlNumber)).statusCode).toBe(429);
    });

    it('counts a licence number typed with other spacing or case as the same licence number', async () => {
      const student = await createStudent(t.db, { dlNumber: 'K1112223' });
      for (const typed of ['k1112223', 'K111-2223', ' K 1112223', 'K1112223', 'k-111-2223']) {
        expect((await studentLogin('Wrong', typed)).statusCode).toBe(401);
      }
      expect((await studentLogin(student.lastName, student.dlNumber)).statusCode).toBe(429);
    });

    it('lets the student in again once 15 minutes have passed', async () => {
      const student = await createStudent(t.db);
      for (let attempt = 1; attempt <= 5; attempt++) await studentLogin('Wrong', student.dlNumber);
      expect((await studentLogin(student.lastName, student.dlNumber)).statusCode).toBe(429);

      t.clock.advance(14 * MINUTE);
      expect((await studentLogin(student.lastName, student.dlNumber)).statusCode).toBe(429);
      t.clock.advance(MINUTE);
      expect((await studentLogin(student.lastName, student.dlNumber)).statusCode).toBe(200);
    });

    it('throttles one licence number without holding up other students', async () => {
      const throttled = await createStudent(t.db);
      const other = await createStudent(t.db);
      const address = uniqueAddress();
      for (let attempt = 1; attempt <= 5; attempt++) await studentLogin('Wrong', throttled.dlNumber, address);
      expect((await studentLogin(throttled.lastName, throttled.dlNumber, address)).statusCode).toBe(429);
      expect((await studentLogin(other.lastName, other.dlNumber, address)).statusCode).toBe(200);
    });

    it('does not let parallel attempts get past the limit of 5', async () => {
      const student = await createStudent(t.db);
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => studentLogin(`Guess${String(i)}`, student.dlNumber)),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(7);
    });

    it('checks a right guess only after the guesses of the same licence in progress are counted', async () => {
      // A burst of guesses sent at once must not see the right last name checked before the wrong
      // ones' failures are counted. Here a guess in progress holds the licence's row while its
      // failures (the limit's 5) are written; the right sign-in sent meanwhile must wait for it.
      const student = await createStudent(t.db);
      const guessing = { scope: 'student', subject: student.dlNumber, ip: uniqueAddress() } as const;
      let answered = false;
      let signIn: Promise<{ statusCode: number }> | undefined;
      await withGuessThrottle(t.db, t.clock, guessing, async (tx, recordFailure) => {
        for (let failure = 1; failure <= 5; failure++) await recordFailure();
        signIn = studentLogin(student.lastName, student.dlNumber).then((response) => {
          answered = true;
          return response;
        });
        // On PostgreSQL, until the sign-in waits for the row (or has answered without it); on
        // PGlite's one connection it cannot run before this transaction ends anyway.
        for (let look = 0; look < 200 && !answered; look++) {
          const [waiting] = await selectRows(tx, sql`select count(*)::int as count from pg_locks where not granted`);
          if (Number(waiting?.count) > 0) break;
        }
      });
      const response = await signIn;
      expect(response?.statusCode).toBe(429);
    });

    it('refuses the 6th attempt for a staff username with a 429, even with the right password', async () => {
      const member = await createStaff(t.db);
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect((await adminLogin(member.username, `wrong ${String(attempt)}`)).statusCode).toBe(401);
      }
      const sixth = await adminLogin(member.username, member.password);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual(TOO_MANY);

      t.clock.advance(15 * MINUTE);
      expect((await adminLogin(member.username, member.password)).statusCode).toBe(200);
    });

    it('counts a username typed in another case as the same username', async () => {
      const member = await createStaff(t.db);
      for (const typed of [member.username.toUpperCase(), member.username, ` ${member.username}`]) {
        await adminLogin(typed, 'wrong');
        await adminLogin(typed.toLowerCase(), 'wrong again');
      }
      expect((await adminLogin(member.username, member.password)).statusCode).toBe(429);
    });

    it('refuses an address after 30 failures over different licence numbers, and only that address', async () => {
      const student = await createStudent(t.db);
      const address = uniqueAddress();
      for (let attempt = 1; attempt <= 30; attempt++) {
        const response = await studentLogin('Guess', `X${String(5000000 + attempt)}`, address);
        expect(response.statusCode, `attempt ${String(attempt)}`).toBe(401);
      }

      const blocked = await studentLogin(student.lastName, student.dlNumber, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.code).toBe('TOO_MANY_REQUESTS');
      expect((await adminLogin('someone', 'anything', address)).statusCode).toBe(429);
      expect((await studentLogin(student.lastName, student.dlNumber, uniqueAddress())).statusCode).toBe(200);

      t.clock.advance(15 * MINUTE);
      expect((await studentLogin(student.lastName, student.dlNumber, address)).statusCode).toBe(200);
    });

    it('keeps no licence number, username or address in clear in the failure records', async () => {
      const student = await createStudent(t.db, { dlNumber: 'Q4445556' });
      const member = await createStaff(t.db);
      const address = uniqueAddress();
      await studentLogin('Wrong', 'q444-5556', address);
      await adminLogin(member.username, 'wrong', address);

      const rows = await selectRows(t.db, sql`select * from failed_guesses`);
      const stored = JSON.stringify(rows).toLowerCase();
      expect(stored).not.toContain(student.dlNumber.toLowerCase());
      expect(stored).not.toContain('4445556');
      expect(stored).not.toContain(member.username.toLowerCase());
      expect(stored).not.toContain(address);
      for (const row of rows) {
        expect(Object.keys(row).sort()).toEqual(['failed_at', 'key_hash']);
        expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      }
      const [addressRow] = await selectRows(
        t.db,
        sql`select cardinality(failed_at) as failures from failed_guesses where key_hash = ${throttleAddressHash(address)}`,
      );
      expect(Number(addressRow?.failures)).toBe(2);
    });
  });
});

describe('auth on a server whose PUBLIC_URL is https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { PUBLIC_URL: 'https://school.example' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks the session cookie Secure', async () => {
    const student = await createStudent(t.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: student.lastName, dl_number: student.dlNumber },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'ts_session')).toMatchObject({ secure: true, httpOnly: true });
  });
});

describe('auth in production, behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { ...PRODUCTION_WITHOUT_SERVICES } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('does not let a client escape the per-address cap by sending its own X-Forwarded-For', async () => {
    // The proxy (198.51.100.7) appends the real client address (203.0.113.9) to whatever the client sent.
    const student = await createStudent(t.db);
    const attempt = (lastName: string, dlNumber: string, spoofed: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/student',
        payload: { last_name: lastName, dl_number: dlNumber },
        remoteAddress: '198.51.100.7',
        headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.9` },
      });
    for (let i = 1; i <= 30; i++) {
      await attempt('Guess', `X${String(6000000 + i)}`, `192.0.2.${String(i)}`);
    }
    const response = await attempt(student.lastName, student.dlNumber, '192.0.2.200');
    expect(response.statusCode).toBe(429);
  });
});
