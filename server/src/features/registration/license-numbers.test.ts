import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateCorrections, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { apiClient, signedInStaff } from '../../testing/course.ts';
import { buildRegistration, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { signInStudent, uniqueAddress } from '../../testing/sign-in.ts';

/**
 * A driver's license number is letters A-Z and digits once spaces and hyphens (as the states
 * print them) are taken out (contract: driverLicenseNumber). Anything else would store a second
 * student whose number looks the same as another's on screen and on the certificate.
 */
const LOOK_ALIKES = [
  ['a zero-width space', 'Z123\u200b4567'],
  ['a right-to-left override', 'Z123\u202e4567'],
  ['a control character', 'Z1234567\u0001'],
  ['a no-break space inside', 'Z123\u00a04567'],
  ['a look-alike Cyrillic letter', '\u04171234567'],
  ['a NUL byte', 'Z123\u00004567'],
] as const;

function namesField(response: LightMyRequestResponse, field: string): boolean {
  const body = response.json<{ error: { code: string; fields?: { field: string }[] } }>().error;
  return body.code === 'VALIDATION_FAILED' && (body.fields ?? []).some((named) => named.field.endsWith(field));
}

describe("driver's license numbers", () => {
  let t: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    t = await buildTestApp();
    adminCookie = (await signedInStaff(t, 'super_admin')).cookie;
    await createStudent(t.db, { dlNumber: 'Z1234567' });
  });
  afterAll(async () => {
    await t.close();
  });

  const register = (payload: object, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload,
      remoteAddress: uniqueAddress(),
      ...(cookie ? { headers: { cookie } } : {}),
    });

  it.each(LOOK_ALIKES)(
    'refuses a registration whose number holds %s with 400 naming dl_number, and stores nothing',
    async (_, dl) => {
      const before = await t.db.select().from(students);
      const response = await register(buildRegistration({ dl_number: dl }));
      expect(response.statusCode).toBe(400);
      expect(namesField(response, 'dl_number')).toBe(true);
      expect(await t.db.select().from(students)).toHaveLength(before.length);
    },
  );

  it("refuses the same in a staff member's enrolment", async () => {
    const response = await register(
      { ...buildRegistration({ dl_number: 'Z123\u200b4567' }), backdoor: true },
      adminCookie,
    );
    expect(response.statusCode).toBe(400);
    expect(namesField(response, 'dl_number')).toBe(true);
  });

  it('stores the number as the states print it without spaces and hyphens, upper-cased', async () => {
    const response = await register(buildRegistration({ dl_number: ' d123-45 67 ' }));
    expect(response.statusCode, response.body).toBe(201);
    const { studentId } = response.json<{ studentId: number }>();
    const [row] = await t.db.select().from(students).where(eq(students.id, studentId));
    expect(row?.dlNumber).toBe('D1234567');
  });

  it('refuses a sign-in whose number holds an invisible character with 400 naming dl_number', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: 'Rivera', dl_number: 'Z123\u200b4567' },
      remoteAddress: uniqueAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(namesField(response, 'dl_number')).toBe(true);
  });

  it('refuses a correction to a number with an invisible character, and records no request', async () => {
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    const client = apiClient(t.app, await signInStudent(t.app, student));
    const response = await client.post(`/api/students/${String(student.id)}/corrections`, {
      field: 'dl_number',
      value: 'Z123\u200b4567',
      reason: 'The number on my certificate is wrong.',
    });
    expect(response.statusCode).toBe(400);
    expect(namesField(response, 'value')).toBe(true);
    expect(
      await t.db.select().from(certificateCorrections).where(eq(certificateCorrections.studentId, student.id)),
    ).toEqual([]);
  });
});
