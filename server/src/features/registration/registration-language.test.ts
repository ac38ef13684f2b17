import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { signedInStaff } from '../../testing/course.ts';
import { buildRegistration } from '../../testing/factories.ts';
import { uniqueAddress } from '../../testing/sign-in.ts';

/** Decision 056: an enrolment keeps the language it was registered in, for the emails it is sent. */
describe("the registration's language", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const register = (acceptLanguage: string | undefined, headers: Record<string, string> = {}, payload = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration(payload),
      remoteAddress: uniqueAddress(),
      headers: { ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }), ...headers },
    });
  const languageOf = async (response: { json: <T>() => T; statusCode: number; body: string }) => {
    expect(response.statusCode, response.body).toBe(201);
    const { studentId } = response.json<{ studentId: number }>();
    const [row] = await t.db.select({ language: students.language }).from(students).where(eq(students.id, studentId));
    return row?.language;
  };

  it('stores Spanish for a registration made in Spanish', async () => {
    expect(await languageOf(await register('es'))).toBe('es');
    expect(await languageOf(await register('es-US,es;q=0.9,en;q=0.5'))).toBe('es');
  });

  it('stores English for a registration made in English, or in a language the school does not offer', async () => {
    expect(await languageOf(await register('en-US'))).toBe('en');
    expect(await languageOf(await register('fr-FR'))).toBe('en');
    expect(await languageOf(await register(undefined))).toBe('en');
  });

  it("stores the language of a staff member's enrolment by hand, as their page was in", async () => {
    const admin = await signedInStaff(t, 'admin');
    const response = await register('es', { cookie: admin.cookie }, { backdoor: true });
    expect(await languageOf(response)).toBe('es');
  });
});
