import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { REGISTRATION_FIELDS, type Registration } from '@ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, resetTokens, sessions, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { buildRegistration, createStaff, createStudent, getCourtId, markStudentPaid } from '../../testing/factories.ts';
import { countRows } from '../../testing/rows.ts';
import { signInStaff, signInStudent, uniqueAddress } from '../../testing/sign-in.ts';
import { paymentsOf } from '../../testing/payments.ts';
import { signedInStaff } from '../../testing/course.ts';

const MINUTE = 60_000;
/** createStudent's birth date (1988-07-04) as the registration form types it. */
const FACTORY_DOB = '07/04/1988';

/** The fields a 400 names, each once. */
function fieldsOf(response: LightMyRequestResponse): string[] {
  const { fields } = response.json<{ error: { fields: { field: string }[] } }>().error;
  return [...new Set(fields.map((f) => f.field))];
}

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // Each registration from its own address, unless a test says otherwise: duplicates count
  // against the per-address guess cap (decision 004), which only the throttle tests are about.
  const register = (payload: object, cookie?: string, remoteAddress = uniqueAddress()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload,
      remoteAddress,
      ...(cookie ? { headers: { cookie } } : {}),
    });
  const resetCourse = (studentId: number, payload?: object, cookie?: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/students/resetcourse/${String(studentId)}`,
      ...(payload ? { payload } : {}),
      ...(cookie ? { headers: { cookie } } : {}),
    });
  const findStudent = async (id: number) => {
    const [row] = await t.db.select().from(students).where(eq(students.id, id));
    return row;
  };
  /** What proves an enrolment's identity at registration: last name, licence number and birth date. */
  const identityOf = (student: { lastName: string; dlNumber: string }) => ({
    last_name: student.lastName,
    dl_number: student.dlNumber,
    dob: FACTORY_DOB,
  });
  /** A registration that is refused as a duplicate of an existing enrolment, with its reset token. */
  const duplicateWithToken = async () => {
    const existing = await createStudent(t.db);
    const response = await register(buildRegistration(identityOf(existing)));
    const error = response.json().error as { resetToken?: string };
    if (!error.resetToken) throw new Error(`no reset token in ${response.body}`);
    return { existing, token: error.resetToken };
  };

  describe('POST /api/register/student', () => {
    it('keeps the optional case or citation number (decision 024) as typed, trimmed, and refuses one with other characters', async () => {
      const withNumber = await register(buildRegistration({ case_number: ' TR-2026/00417 ' }));
      expect(withNumber.statusCode).toBe(201);
      const student = await findStudent(withNumber.json<{ studentId: number }>().studentId);
      expect(student?.caseNumber).toBe('TR-2026/00417');

      const without = await register(buildRegistration({ case_number: '' }));
      expect(await findStudent(without.json<{ studentId: number }>().studentId)).toMatchObject({ caseNumber: null });

      const before = await countRows(t.db, 'students');
      const bad = await register(buildRegistration({ case_number: '=HYPERLINK("x")' }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual([
        {
          field: 'case_number',
          message: 'The case or citation number may use letters, digits, spaces and - / . # only.',
        },
      ]);
      expect(await countRows(t.db, 'students')).toBe(before);
    });

    it('registers a student and answers 201 with the new studentId', async () => {
      const registration = buildRegistration();
      const response = await register(registration);

      expect(response.statusCode).toBe(201);
      const { studentId } = response.json<{ studentId: number }>();
      expect(response.json()).toEqual({ studentId: expect.any(Number) as number });
      expect(await findStudent(studentId)).toMatchObject({
        firstName: registration.first_name,
        lastName: registration.last_name,
        email: registration.email,
        dlNumber: registration.dl_number,
        dob: '1990-04-15',
        address: registration.address,
        city: registration.city,
        state: registration.state,
        zip: registration.zip,
        courtId: registration.court,
        enrolledByStaffId: null,
        paymentAt: null,
        completedAt: null,
        archivedAt: null,
        createdAt: t.clock.now(),
      });
    });

    it('stores the email lower-cased and the licence number upper-cased without spaces or dashes', async () => {
      const response = await register(buildRegistration({ email: ' Pat.Jones@Example.COM ', dl_number: 'p 123-4567' }));
      expect(response.statusCode).toBe(201);
      const row = await findStudent(response.json<{ studentId: number }>().studentId);
      expect(row).toMatchObject({ email: 'pat.jones@example.com', dlNumber: 'P1234567' });
    });

    it('takes the court as the select box sends it, a numeric string', async () => {
      const courtId = await getCourtId(t.db, 3);
      const response = await register({ ...buildRegistration(), court: String(courtId) });
      expect(response.statusCode).toBe(201);
      expect((await findStudent(response.json<{ studentId: number }>().studentId))?.courtId).toBe(courtId);
    });

    it.each(REGISTRATION_FIELDS)('refuses a registration without %s with a 400 and writes nothing', async (field) => {
      const payload: Partial<Record<string, unknown>> = { ...buildRegistration() };
      delete payload[field];
      const before = await countRows(t.db, 'students');

      const response = await register(payload);

      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(fieldsOf(response)).toContain(field);
      expect(await countRows(t.db, 'students')).toBe(before);
    });

    it.each(REGISTRATION_FIELDS.filter((field) => field !== 'court' && field !== 'state' && field !== 'dob'))(
      'refuses a registration whose %s is blank, with the spec message',
      async (field) => {
        const before = await countRows(t.db, 'students');
        const response = await register({ ...buildRegistration(), [field]: '   ' });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({
          code: 'VALIDATION_FAILED',
          message: 'Please fill out all fields.',
        });
        expect(fieldsOf(response)).toEqual([field]);
        expect(await countRows(t.db, 'students')).toBe(before);
      },
    );

    it.each(['02/30/1990', '13/01/2000', '04/15/199', '1990-04-15', '01/01/2030', '01/01/2020', '01/01/1890'])(
      'refuses the date of birth %s with a 400 and writes nothing',
      async (dob) => {
        const before = await countRows(t.db, 'students');
        const response = await register(buildRegistration({ dob }));
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response)).toEqual(['dob']);
        expect(await countRows(t.db, 'students')).toBe(before);
      },
    );

    it.each([
      ['XX', 'state'],
      ['9001', 'zip'],
    ] as const)('refuses the value %s for %s', async (value, field) => {
      const response = await register({ ...buildRegistration(), [field]: value });
      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toEqual([field]);
    });

    it.each([
      'me@student.example, someone@elsewhere.example',
      'me@student.example;someone@elsewhere.example',
      'me@student.example\r\nBcc: someone@elsewhere.example',
    ])(
      'refuses an email that a mail library would read as several recipients (%j) and writes nothing',
      async (email) => {
        const before = await countRows(t.db, 'students');
        const response = await register(buildRegistration({ email }));
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response)).toEqual(['email']);
        expect(await countRows(t.db, 'students')).toBe(before);
      },
    );

    it('refuses a court that does not exist with a 400 and writes nothing', async () => {
      const before = await countRows(t.db, 'students');
      const response = await register(buildRegistration({ court: 999_999 }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: {
          code: 'NO_SUCH_COURT',
          message: 'Please choose a court from the list.',
          requestId: expect.any(String) as string,
        },
      });
      expect(await countRows(t.db, 'students')).toBe(before);
    });

    it('ignores fields the form does not have', async () => {
      const response = await register({ ...buildRegistration(), payment_at: '2026-01-01T00:00:00Z', id: 1 });
      expect(response.statusCode).toBe(201);
      const row = await findStudent(response.json<{ studentId: number }>().studentId);
      expect(row?.paymentAt).toBeNull();
    });
  });

  describe('duplicate accounts (spec 4 and 8: "Important Notice")', () => {
    it('refuses a second active enrolment with the same email with a 409 carrying the existing studentId', async () => {
      const existing = await createStudent(t.db);
      const before = await countRows(t.db, 'students');

      const response = await register(buildRegistration({ email: existing.email.toUpperCase() }));

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: {
          code: 'DUPLICATE_ACCOUNT',
          message: expect.stringContaining('An account already exists') as string,
          studentId: existing.id,
          requestId: expect.any(String) as string,
        },
      });
      expect(await countRows(t.db, 'students')).toBe(before);
    });

    it('refuses a second active enrolment with the same licence number, however it is typed', async () => {
      const existing = await createStudent(t.db, { dlNumber: 'F5556667' });
      const response = await register(buildRegistration({ dl_number: 'f 555-6667' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'DUPLICATE_ACCOUNT', studentId: existing.id });
    });

    it('offers a reset token when the licence number, the last name (in any case) and the birth date all match', async () => {
      const existing = await createStudent(t.db, { lastName: 'Okafor' });
      const response = await register(buildRegistration({ ...identityOf(existing), last_name: 'OKAFOR' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        studentId: existing.id,
        resetToken: expect.stringMatching(/^[\w-]{40,}$/) as string,
      });
    });

    it('says with the reset token whether the course it would replace is paid for, and never without one', async () => {
      const unpaid = await createStudent(t.db);
      const unpaidAnswer = (await register(buildRegistration(identityOf(unpaid)))).json().error;
      expect(unpaidAnswer).toMatchObject({ studentId: unpaid.id, paid: false });

      const paid = await createStudent(t.db);
      await markStudentPaid(t.db, paid.id, t.clock.now());
      const paidAnswer = (await register(buildRegistration(identityOf(paid)))).json().error;
      expect(paidAnswer).toMatchObject({ studentId: paid.id, paid: true, resetToken: expect.any(String) as string });

      // Knowing the email alone proves nothing: no token, and nothing about the payment.
      const stranger = (await register(buildRegistration({ email: paid.email }))).json().error;
      expect(stranger.studentId).toBe(paid.id);
      expect(stranger).not.toHaveProperty('paid');
    });

    it('offers no reset token when only the email matches', async () => {
      const existing = await createStudent(t.db);
      const response = await register(buildRegistration({ email: existing.email, last_name: existing.lastName }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error.studentId).toBe(existing.id);
      expect(response.json().error).not.toHaveProperty('resetToken');
    });

    it('offers no reset token when licence number and last name match but the birth date differs', async () => {
      const existing = await createStudent(t.db);
      const response = await register(buildRegistration({ ...identityOf(existing), dob: '07/05/1988' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error.studentId).toBe(existing.id);
      expect(response.json().error).not.toHaveProperty('resetToken');
      expect(await t.db.select().from(resetTokens).where(eq(resetTokens.studentId, existing.id))).toEqual([]);
    });

    it('offers no reset token when the licence number matches but the last name differs', async () => {
      const existing = await createStudent(t.db);
      const response = await register(buildRegistration({ dl_number: existing.dlNumber, last_name: 'Different' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error.studentId).toBe(existing.id);
      expect(response.json().error).not.toHaveProperty('resetToken');
    });

    it('keeps only a hash of the reset token', async () => {
      const { existing, token } = await duplicateWithToken();
      const rows = await t.db.select().from(resetTokens).where(eq(resetTokens.studentId, existing.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.tokenHash).not.toBe(token);
      expect(rows[0]?.expiresAt).toEqual(new Date(t.clock.now().getTime() + 30 * MINUTE));
    });

    it('lets the same email or licence number register again once the old enrolment is archived', async () => {
      const archived = await createStudent(t.db, { archivedAt: new Date('2026-10-01T00:00:00Z') });
      const response = await register(
        buildRegistration({ email: archived.email, dl_number: archived.dlNumber, last_name: archived.lastName }),
      );
      expect(response.statusCode).toBe(201);
    });

    it('answers two identical registrations sent at once with exactly one 201 and one 409', async () => {
      const registration = buildRegistration();
      const before = await countRows(t.db, 'students');

      const responses = await Promise.all([register(registration), register(registration)]);

      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
      const created = responses.find((response) => response.statusCode === 201)?.json<{ studentId: number }>();
      const refused = responses.find((response) => response.statusCode === 409)?.json();
      expect(refused.error).toMatchObject({ code: 'DUPLICATE_ACCOUNT', studentId: created?.studentId });
      expect(await countRows(t.db, 'students')).toBe(before + 1);
    });
  });

  describe('PUT /api/students/resetcourse/{studentId} ("Continue and Register")', () => {
    it('archives the existing enrolment with the reset token, and the same registration then succeeds', async () => {
      const existing = await createStudent(t.db, { paymentAt: new Date('2026-11-01T00:00:00Z') });
      const registration: Registration = buildRegistration(identityOf(existing));
      const refused = await register(registration);
      const { resetToken } = refused.json<{ error: { resetToken: string } }>().error;

      const reset = await resetCourse(existing.id, { resetToken });

      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({ status: 'RESET', archivedStudentId: existing.id });
      // Data is never thrown away: the old enrolment stays, archived, with its payment.
      expect(await findStudent(existing.id)).toMatchObject({
        archivedAt: t.clock.now(),
        archiveReason: 'replaced_by_new_registration',
        paymentAt: new Date('2026-11-01T00:00:00Z'),
      });

      const again = await register(registration);
      expect(again.statusCode).toBe(201);
      const { studentId } = again.json<{ studentId: number }>();
      expect(studentId).not.toBe(existing.id);
      expect(await findStudent(studentId)).toMatchObject({ archivedAt: null, paymentAt: null });
    });

    it('offers no reset when the email belongs to another enrolment than the licence, so nothing is archived in vain (decision 026)', async () => {
      const byLicence = await createStudent(t.db);
      const byEmail = await createStudent(t.db);
      const registration: Registration = buildRegistration({ ...identityOf(byLicence), email: byEmail.email });
      const refused = await register(registration);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'DUPLICATE_ACCOUNT',
        studentId: byLicence.id,
        in_use: 'email',
      });
      expect(refused.json().error.resetToken).toBeUndefined();
      expect((await findStudent(byLicence.id))?.archivedAt).toBeNull();
    });

    it('archives nothing when another enrolment took the email after the token was given, and says which detail (decision 026)', async () => {
      const existing = await createStudent(t.db);
      const registration: Registration = buildRegistration(identityOf(existing));
      const { resetToken } = (await register(registration)).json<{ error: { resetToken: string } }>().error;
      // Someone else enrols with the same email before "Continue and Register".
      const taker = await createStudent(t.db, { email: registration.email });

      const reset = await resetCourse(existing.id, { resetToken });
      expect(reset.statusCode).toBe(409);
      expect(reset.json().error).toMatchObject({ code: 'DUPLICATE_ACCOUNT', studentId: taker.id, in_use: 'email' });
      expect((await findStudent(existing.id))?.archivedAt).toBeNull();
      // The token was not spent: the whole reset rolled back.
      const [token] = await t.db.select().from(resetTokens).where(eq(resetTokens.studentId, existing.id));
      expect(token?.usedAt).toBeNull();
    });

    it('accepts a reset token only once', async () => {
      const { existing, token } = await duplicateWithToken();
      expect((await resetCourse(existing.id, { resetToken: token })).statusCode).toBe(200);

      const second = await resetCourse(existing.id, { resetToken: token });
      expect(second.statusCode).toBe(403);
      expect(second.json().error.code).toBe('FORBIDDEN');
    });

    it('still accepts the token 29 minutes later', async () => {
      const { existing, token } = await duplicateWithToken();
      t.clock.advance(29 * MINUTE);
      expect((await resetCourse(existing.id, { resetToken: token })).statusCode).toBe(200);
    });

    it('refuses a token older than 30 minutes and archives nothing', async () => {
      const { existing, token } = await duplicateWithToken();
      t.clock.advance(30 * MINUTE);

      const response = await resetCourse(existing.id, { resetToken: token });

      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      expect((await findStudent(existing.id))?.archivedAt).toBeNull();
    });

    it('refuses a token used for another student, archives nothing and leaves the token usable', async () => {
      const { existing, token } = await duplicateWithToken();
      const other = await createStudent(t.db);

      const response = await resetCourse(other.id, { resetToken: token });

      expect(response.statusCode).toBe(403);
      expect((await findStudent(other.id))?.archivedAt).toBeNull();
      expect((await findStudent(existing.id))?.archivedAt).toBeNull();
      expect((await resetCourse(existing.id, { resetToken: token })).statusCode).toBe(200);
    });

    it('refuses a made-up token with a 403', async () => {
      const existing = await createStudent(t.db);
      const response = await resetCourse(existing.id, { resetToken: 'made-up-token' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      expect((await findStudent(existing.id))?.archivedAt).toBeNull();
    });

    it('refuses a caller with neither a token nor a session with a 403', async () => {
      const existing = await createStudent(t.db);
      const response = await resetCourse(existing.id);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      expect((await findStudent(existing.id))?.archivedAt).toBeNull();
    });

    it('does not let a signed-in student archive their own course without the dialog’s token (decision 004)', async () => {
      const student = await createStudent(t.db, { paymentAt: new Date('2026-11-01T00:00:00Z') });
      const cookie = await signInStudent(t.app, student);

      const response = await resetCourse(student.id, undefined, cookie);

      expect(response.statusCode).toBe(403);
      expect((await findStudent(student.id))?.archivedAt).toBeNull();
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
    });

    it('does not let a signed-in student reset another student’s course', async () => {
      const student = await createStudent(t.db);
      const other = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);

      const response = await resetCourse(other.id, { resetToken: 'not-a-token-for-this-student' }, cookie);

      expect(response.statusCode).toBe(403);
      expect((await findStudent(other.id))?.archivedAt).toBeNull();
    });

    it('does not let a staff session reset a course without a token', async () => {
      const student = await createStudent(t.db);
      const { cookie } = await signedInStaff(t, 'super_admin');
      const response = await resetCourse(student.id, { resetToken: 'not-a-token' }, cookie);
      expect(response.statusCode).toBe(403);
      expect((await findStudent(student.id))?.archivedAt).toBeNull();
    });

    it('answers 404 for an enrolment that is already archived', async () => {
      const { existing, token } = await duplicateWithToken();
      await t.db.update(students).set({ archivedAt: t.clock.now() }).where(eq(students.id, existing.id));
      const response = await resetCourse(existing.id, { resetToken: token });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    });

    it('ends every session of the archived enrolment', async () => {
      const { existing, token } = await duplicateWithToken();
      const cookie = await signInStudent(t.app, existing);
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);

      expect((await resetCourse(existing.id, { resetToken: token })).statusCode).toBe(200);

      const rows = await t.db.select().from(sessions).where(eq(sessions.studentId, existing.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.endedAt).toEqual(t.clock.now());
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
    });

    it.each(['abc', '0', '-1'])('refuses the student id %s with a 400', async (id) => {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/students/resetcourse/${id}`,
        payload: { resetToken: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('duplicate probes count as sign-in guesses (decision 004)', () => {
    const signIn = (student: { lastName: string; dlNumber: string }, remoteAddress = uniqueAddress()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/student',
        payload: { last_name: student.lastName, dl_number: student.dlNumber },
        remoteAddress,
      });

    it('answers the 6th probe of one licence within 15 minutes with 429 and Retry-After, from any address', async () => {
      const existing = await createStudent(t.db);
      for (let probe = 1; probe <= 5; probe += 1) {
        const response = await register(
          buildRegistration({ dl_number: existing.dlNumber, last_name: `Guess${String(probe)}` }),
        );
        expect(response.statusCode, `probe ${String(probe)}`).toBe(409);
      }
      const sixth = await register(buildRegistration(identityOf(existing)));
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().error.code).toBe('TOO_MANY_REQUESTS');
      expect(sixth.json().error).not.toHaveProperty('resetToken');
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    });

    it('locks sign-in for a licence that registration has probed five times', async () => {
      const existing = await createStudent(t.db);
      for (let probe = 1; probe <= 5; probe += 1) {
        await register(buildRegistration({ dl_number: existing.dlNumber }));
      }
      const response = await signIn(existing);
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBeDefined();
    });

    it('counts failed sign-ins against registration probes of the same licence', async () => {
      const existing = await createStudent(t.db);
      for (let guess = 1; guess <= 5; guess += 1) {
        expect((await signIn({ lastName: `Wrong${String(guess)}`, dlNumber: existing.dlNumber })).statusCode).toBe(401);
      }
      const probe = await register(buildRegistration(identityOf(existing)));
      expect(probe.statusCode).toBe(429);
      expect(await t.db.select().from(resetTokens).where(eq(resetTokens.studentId, existing.id))).toEqual([]);
    });

    it('caps duplicate probes of many licences from one address', async () => {
      const address = uniqueAddress();
      const statuses: number[] = [];
      for (let probe = 1; probe <= 31; probe += 1) {
        const existing = await createStudent(t.db);
        statuses.push(
          (await register(buildRegistration({ dl_number: existing.dlNumber }), undefined, address)).statusCode,
        );
      }
      expect(statuses.slice(0, 30).every((status) => status === 409)).toBe(true);
      expect(statuses[30]).toBe(429);
    });

    it('refuses with 429 a registration that finds no duplicate from an address over its limit, and enrols no one', async () => {
      const address = uniqueAddress();
      for (let probe = 1; probe <= 30; probe += 1) {
        const existing = await createStudent(t.db);
        await register(buildRegistration({ dl_number: existing.dlNumber }), undefined, address);
      }
      const fresh = buildRegistration();
      const response = await register(fresh, undefined, address);
      expect(response.statusCode).toBe(429);
      expect(await t.db.select().from(students).where(eq(students.dlNumber, fresh.dl_number))).toEqual([]);
    });

    it('does not count a registration that finds no duplicate', async () => {
      const address = uniqueAddress();
      for (let n = 1; n <= 6; n += 1) {
        expect((await register(buildRegistration(), undefined, address)).statusCode).toBe(201);
      }
    });

    it('lets the licence be tried again once the 15 minutes have passed', async () => {
      const existing = await createStudent(t.db);
      for (let probe = 1; probe <= 5; probe += 1) {
        await register(buildRegistration({ dl_number: existing.dlNumber }));
      }
      expect((await register(buildRegistration(identityOf(existing)))).statusCode).toBe(429);
      t.clock.advance(15 * MINUTE + 1000);
      const later = await register(buildRegistration(identityOf(existing)));
      expect(later.statusCode).toBe(409);
      expect(later.json().error.resetToken).toEqual(expect.any(String));
    });

    it('answers concurrent probes of one licence with at most five 409s', async () => {
      const existing = await createStudent(t.db);
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => register(buildRegistration({ dl_number: existing.dlNumber }))),
      ).then((responses) => responses.map((response) => response.statusCode));
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    });
  });

  describe('manual enrolment (spec 7: backdoor true; decision 011)', () => {
    const auditOf = (studentId: number) =>
      t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'student'), eq(auditLog.entityId, studentId)));

    it('registers an anonymous caller’s backdoor registration as an ordinary, unpaid one', async () => {
      const response = await register({ ...buildRegistration(), backdoor: true });
      expect(response.statusCode).toBe(201);
      const studentId = response.json<{ studentId: number }>().studentId;
      expect(await findStudent(studentId)).toMatchObject({ enrolledByStaffId: null, paymentAt: null });
      expect(await paymentsOf(t.db, studentId)).toEqual([]);
      expect(await auditOf(studentId)).toEqual([]);
    });

    it('records the payment staff took for a manual enrolment: a voucher at its amount, a waived course at zero (decision 026)', async () => {
      const cookie = (await signedInStaff(t, 'admin')).cookie;
      const voucher = await register(
        { ...buildRegistration(), backdoor: true, manual_payment: { manual_method: 'voucher', amount_cents: 1500 } },
        cookie,
      );
      const waived = await register(
        { ...buildRegistration(), backdoor: true, manual_payment: { manual_method: 'waived' } },
        cookie,
      );
      const recorded = async (response: LightMyRequestResponse) =>
        (await paymentsOf(t.db, response.json<{ studentId: number }>().studentId)).map((row) => [
          row.manualMethod,
          row.amountCents,
        ]);
      expect(await recorded(voucher)).toEqual([['voucher', 1500]]);
      expect(await recorded(waived)).toEqual([['waived', 0]]);
    });

    it.each(['admin', 'super_admin'] as const)(
      'enrols the student paid when a %s sends backdoor: a manual payment, who enrolled them, and an audit entry',
      async (role) => {
        const { member, cookie } = await signedInStaff(t, role);
        const registration = buildRegistration();
        const licence = registration.dl_number;
        // Typed as people do; stored normalised, as every registration is.
        registration.dl_number = `${licence.slice(0, 4).toLowerCase()} -${licence.slice(4)}`;

        const response = await register({ ...registration, backdoor: true }, cookie);

        expect(response.statusCode).toBe(201);
        const studentId = response.json<{ studentId: number }>().studentId;
        expect(await findStudent(studentId)).toMatchObject({
          enrolledByStaffId: member.id,
          paymentAt: t.clock.now(),
          createdAt: t.clock.now(),
          dlNumber: licence,
        });
        expect(await paymentsOf(t.db, studentId)).toEqual([
          expect.objectContaining({
            method: 'manual',
            recordedByStaffId: member.id,
            // Decision 026: the course price for the student's court unless the staff member typed another.
            amountCents: t.config.coursePriceCents,
            providerPaymentId: null,
            createdAt: t.clock.now(),
          }),
        ]);
        const entries = await auditOf(studentId);
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          staffId: member.id,
          action: 'enrol_student',
          before: null,
          createdAt: t.clock.now(),
          after: {
            first_name: registration.first_name,
            last_name: registration.last_name,
            email: registration.email,
            dl_number: licence,
            dob: '1990-04-15',
            address: registration.address,
            city: registration.city,
            state: registration.state,
            zip: registration.zip,
            court: registration.court,
            payment_at: t.clock.now().toISOString(),
            payment_method: 'manual',
          },
        });
      },
    );

    it.each([
      ['a clerk', { role: 'clerk' as const, courtLimited: false }],
      ['a court-limited admin', { role: 'admin' as const, courtLimited: true }],
    ])('refuses %s who sends backdoor with a 403 and writes nothing', async (_, { role, courtLimited }) => {
      const courtId = await getCourtId(t.db, 0);
      const { cookie } = await signedInStaff(t, role, courtLimited ? courtId : null);
      const before = {
        students: await countRows(t.db, 'students'),
        payments: await countRows(t.db, 'payments'),
        audit: await countRows(t.db, 'audit_log'),
      };

      const response = await register({ ...buildRegistration({ court: courtId }), backdoor: true }, cookie);

      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      expect({
        students: await countRows(t.db, 'students'),
        payments: await countRows(t.db, 'payments'),
        audit: await countRows(t.db, 'audit_log'),
      }).toEqual(before);
    });

    it('lets a clerk register without backdoor as anyone may, unpaid and not enrolled by them', async () => {
      const { cookie } = await signedInStaff(t, 'clerk');
      const response = await register(buildRegistration(), cookie);
      expect(response.statusCode).toBe(201);
      expect(await findStudent(response.json<{ studentId: number }>().studentId)).toMatchObject({
        enrolledByStaffId: null,
        paymentAt: null,
      });
    });

    it('records no staff member and no payment when a signed-in admin registers without backdoor', async () => {
      const member = await createStaff(t.db);
      const cookie = await signInStaff(t.app, member);
      const response = await register(buildRegistration(), cookie);
      expect(response.statusCode).toBe(201);
      const studentId = response.json<{ studentId: number }>().studentId;
      expect(await findStudent(studentId)).toMatchObject({ enrolledByStaffId: null, paymentAt: null });
      expect(await paymentsOf(t.db, studentId)).toEqual([]);
    });

    it('treats a signed-in student’s backdoor registration as an ordinary, unpaid one', async () => {
      const student = await createStudent(t.db);
      const cookie = await signInStudent(t.app, student);
      const response = await register({ ...buildRegistration(), backdoor: true }, cookie);
      expect(response.statusCode).toBe(201);
      expect(await findStudent(response.json<{ studentId: number }>().studentId)).toMatchObject({
        enrolledByStaffId: null,
        paymentAt: null,
      });
    });

    it.each(['email', 'licence number'] as const)(
      'refuses a manual enrolment of an existing %s with the same 409 (spec 5), writing nothing and offering no reset',
      async (field) => {
        const existing = await createStudent(t.db);
        const member = await createStaff(t.db);
        const cookie = await signInStaff(t.app, member);
        const duplicate = buildRegistration(
          field === 'email'
            ? { email: existing.email }
            : { dl_number: existing.dlNumber, last_name: existing.lastName },
        );
        const before = { payments: await countRows(t.db, 'payments'), audit: await countRows(t.db, 'audit_log') };

        const response = await register({ ...duplicate, backdoor: true }, cookie);

        expect(response.statusCode).toBe(409);
        expect(response.json().error).toMatchObject({ code: 'DUPLICATE_ACCOUNT', studentId: existing.id });
        expect(response.json().error).not.toHaveProperty('resetToken');
        expect(await t.db.select().from(resetTokens).where(eq(resetTokens.studentId, existing.id))).toEqual([]);
        expect({
          payments: await countRows(t.db, 'payments'),
          audit: await countRows(t.db, 'audit_log'),
        }).toEqual(before);
      },
    );

    it('answers two identical manual enrolments sent at once with one 201 and one 409, and one payment', async () => {
      const member = await createStaff(t.db);
      const cookie = await signInStaff(t.app, member);
      const registration = { ...buildRegistration(), backdoor: true };
      const before = await countRows(t.db, 'payments');

      const responses = await Promise.all([register(registration, cookie), register(registration, cookie)]);

      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
      expect(await countRows(t.db, 'payments')).toBe(before + 1);
    });
  });
});
