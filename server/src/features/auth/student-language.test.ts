import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourseStudent, recordCourseCompletion } from '../../testing/certificates.ts';
import { apiClient, signedInStaff } from '../../testing/course.ts';
import { createStudent } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { processAllDueDeliveries } from '../certificates/delivery-worker.service.ts';

/** Decision 056: a signed-in student's language switch is stored, and /api/me shows it. */
describe("a student's own language", () => {
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'school@traffic-school.example',
      outboxDir: path.join(os.tmpdir(), 'ts-never-written'),
    });
    t = await buildTestApp({ mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailer.close();
    await smtp.stop();
  });

  const storedLanguage = async (studentId: number) => {
    const [row] = await t.db.select({ language: students.language }).from(students).where(eq(students.id, studentId));
    return row?.language;
  };
  /** A student (unpaid: the switch is theirs before paying too), signed in. */
  const signedInStudent = async () => {
    const student = await createStudent(t.db);
    return { ...student, client: apiClient(t.app, await signInStudent(t.app, student)) };
  };

  it("stores the signed-in student's switch, and /api/me shows it", async () => {
    const student = await signedInStudent();
    expect((await student.client.get('/api/me')).json()).toMatchObject({ user: { id: student.id, language: 'en' } });

    const switched = await student.client.put('/api/me/language', { language: 'es' });
    expect(switched.statusCode, switched.body).toBe(204);
    expect(await storedLanguage(student.id)).toBe('es');
    expect((await student.client.get('/api/me')).json()).toMatchObject({ user: { id: student.id, language: 'es' } });

    expect((await student.client.put('/api/me/language', { language: 'en' })).statusCode).toBe(204);
    expect(await storedLanguage(student.id)).toBe('en');
  });

  it("changes the caller's own language only, never another student's", async () => {
    const student = await signedInStudent();
    const other = await signedInStudent();
    await student.client.put('/api/me/language', { language: 'es' });
    expect(await storedLanguage(student.id)).toBe('es');
    expect(await storedLanguage(other.id)).toBe('en');
  });

  it('refuses a caller who is not signed in with a 401, and changes nothing', async () => {
    const student = await createStudent(t.db);
    const response = await t.app.inject({ method: 'PUT', url: '/api/me/language', payload: { language: 'es' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(await storedLanguage(student.id)).toBe('en');
  });

  it('refuses a staff member, who has no language on record, with a 403', async () => {
    const admin = await signedInStaff(t, 'admin');
    const response = await admin.put('/api/me/language', { language: 'es' });
    expect(response.statusCode).toBe(403);
    expect((await admin.get('/api/me')).json<{ user: object }>().user).not.toHaveProperty('language');
  });

  it('refuses a language the school does not offer with a 400, and changes nothing', async () => {
    const student = await signedInStudent();
    for (const payload of [{ language: 'fr' }, { language: 'ES' }, { language: '' }, {}, { language: null }]) {
      const response = await student.client.put('/api/me/language', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await storedLanguage(student.id)).toBe('en');
  });

  it("writes the certificate email in the language the student switched to before it was sent, the court's copy in English", async () => {
    const student = await createCourseStudent(t);
    expect((await student.client.put('/api/me/language', { language: 'es' })).statusCode).toBe(204);
    await recordCourseCompletion(t, student.id);
    expect(await processAllDueDeliveries(t.db, t.clock, t.config, mailer)).toBe(2);
    const toStudent = smtp.messages.find((message) => message.to.includes(student.email));
    const toCourt = smtp.messages.find((message) => message.to.includes(student.court.email ?? '?'));
    expect(toStudent?.html).toMatch(/<html[^>]* lang="es"/);
    expect(toCourt?.html).toMatch(/<html[^>]* lang="en"/);
  });
});
