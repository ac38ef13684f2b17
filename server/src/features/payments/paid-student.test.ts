import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createStudent } from '../../testing/factories.ts';
import { startPayment, confirmTestCard, signInAsStudent, signInAsStaff } from '../../testing/payments.ts';

describe('course calls need a paid student (402)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const listChapters = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/content/chapters', ...(cookie ? { headers: { cookie } } : {}) });

  it('answers an unpaid student with a JSON 402 PAYMENT_REQUIRED', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInAsStudent(t, student);

    const response = await listChapters(cookie);

    expect(response.statusCode).toBe(402);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: {
        code: 'PAYMENT_REQUIRED',
        message: 'Please pay for the course to continue.',
        requestId: expect.any(String) as string,
      },
    });
  });

  it('opens the course to the same session as soon as the student has paid', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInAsStudent(t, student);
    expect((await listChapters(cookie)).statusCode).toBe(402);

    await confirmTestCard(t, await startPayment(t, student.id));
    const response = await listChapters(cookie);

    expect(response.statusCode).toBe(200);
    expect(response.json<{ id: number }[]>().map((chapter) => chapter.id)).toEqual([1, 2, 3, 4, 6]);
  });

  it('refuses a caller who is not signed in with a 401', async () => {
    const response = await listChapters();
    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses staff with a 403 (the course is for students)', async () => {
    const { cookie } = await signInAsStaff(t, 'super_admin');
    const response = await listChapters(cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
  });
});
