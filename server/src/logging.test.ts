import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { buildTestApp, sessionCookieFrom, type TestApp } from './testing/build-test-app.ts';
import { buildRegistration, createStaff } from './testing/factories.ts';
import { signedInStaff } from './testing/course.ts';

/**
 * ARCHITECTURE "logs": no personal data in logs. The app logs JSON lines to stdout (pino);
 * pino writes through process.stdout when it has been replaced, so the test replaces it
 * before the app is built and reads every line the app writes.
 */
describe('the logs', () => {
  let t: TestApp;
  let stdout: MockInstance<typeof process.stdout.write>;
  const written: string[] = [];
  const logs = () => written.join('');

  beforeAll(async () => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    t = await buildTestApp({ config: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await t.close();
    stdout.mockRestore();
  });

  it('never hold the licence number or email an archive search puts in its URL', async () => {
    const cookie = (await signedInStaff(t, 'admin')).cookie;
    written.length = 0;
    for (const search of ['Q7654321', 'someone.private@example.com']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/students/archivedata/${search}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(logs()).not.toContain(search);
    }
    expect(logs()).toContain('/api/students/archivedata/[redacted]');
  });

  it('never hold the licence number or email a student search puts in its query string', async () => {
    const cookie = (await signedInStaff(t, 'admin')).cookie;
    written.length = 0;
    for (const search of ['Q7654321', 'someone.private@example.com']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/admin/students?searchTerm=${encodeURIComponent(search)}&page=1`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
    }
    const text = logs();
    for (const secret of ['Q7654321', 'someone.private', 'someone.private%40example.com']) {
      expect(text.includes(secret), `the logs contain ${secret}`).toBe(false);
    }
    expect(text).toContain('/api/admin/students?searchTerm=[redacted]&page=[redacted]');
  });

  it("never hold the client secret of the payment page's return URL", async () => {
    written.length = 0;
    const clientSecret = 'pi_3Logged_secret_Zq8xWv2Lk9';
    await t.app.inject({
      method: 'GET',
      url: `/pay?payment_intent=pi_3Logged&payment_intent_client_secret=${clientSecret}&redirect_status=succeeded`,
    });
    const text = logs();
    expect(text.includes(clientSecret)).toBe(false);
    expect(text.includes('pi_3Logged')).toBe(false);
    expect(text).toContain('/pay?payment_intent=[redacted]&payment_intent_client_secret=[redacted]');
  });

  it('are captured by this test, one JSON line per entry', async () => {
    written.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const lines = logs().trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(logs()).toContain('/api/health');
  });

  it('never hold a licence number, date of birth, name, email or secret from registration and sign-in', async () => {
    written.length = 0;
    const registration = buildRegistration({
      last_name: 'Zabrowski',
      email: 'zoe.zabrowski@example.com',
      dl_number: 'W 987-6543',
      dob: '03/09/1979',
    });
    const register = () => t.app.inject({ method: 'POST', url: '/api/register/student', payload: registration });
    const created = await register();
    expect(created.statusCode).toBe(201);
    const duplicate = await register();
    expect(duplicate.statusCode).toBe(409);
    const { studentId, resetToken } = duplicate.json<{ error: { studentId: number; resetToken: string } }>().error;

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: 'Zabrowski', dl_number: 'W9876543' },
    });
    const cookie = sessionCookieFrom(signIn);
    await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: 'Wrong', dl_number: 'W9876543' },
    });
    const member = await createStaff(t.db);
    await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: member.username, password: member.password },
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/students/resetcourse/${String(studentId)}`,
      payload: { resetToken },
    });

    const text = logs();
    expect(text).toContain('/api/register/student');
    for (const secret of [
      'W9876543',
      'W 987-6543',
      '9876543',
      '03/09/1979',
      '1979-03-09',
      'Zabrowski',
      'zoe.zabrowski',
      member.password,
      resetToken,
      cookie.slice('ts_session='.length),
    ]) {
      expect(text.includes(secret), `the logs contain ${secret}`).toBe(false);
    }
  });

  it('never hold a licence number or date of birth when a registration fails in the database', async () => {
    // A rule the database enforces and the app does not check makes the insert fail.
    await t.db.execute(sql`alter table students add constraint logging_test_city check (city <> 'Nowhere')`);
    written.length = 0;
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/register/student',
        payload: buildRegistration({ city: 'Nowhere', dl_number: 'V1231234', dob: '07/21/1984' }),
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`alter table students drop constraint logging_test_city`);
    }

    const text = logs();
    expect(text).toContain('"level":50');
    for (const secret of ['V1231234', '1231234', '07/21/1984', '1984-07-21']) {
      expect(text.includes(secret), `the logs contain ${secret}`).toBe(false);
    }
  });
});
