import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { apiClient, signedInStaff } from '../../testing/course.ts';
import { archiveStudent } from '../../testing/dashboard-data.ts';
import { createStudent } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';
import { setReminderSetting } from './reminder-settings.service.ts';

describe("the student's reminder setting (decision 059)", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const settingUrl = (studentId: number) => `/api/students/${String(studentId)}/reminders`;
  const remindersOffOf = async (studentId: number) =>
    (await t.db.select({ off: students.remindersOff }).from(students).where(eq(students.id, studentId)))[0]?.off;

  /** A registered student (paid or not: the setting is theirs either way), signed in. */
  async function signedInStudent() {
    const student = await createStudent(t.db);
    return { ...student, client: apiClient(t.app, await signInStudent(t.app, student)) };
  }

  it('is on for a new student, who turns it off and on again', async () => {
    const student = await signedInStudent();
    const first = await student.client.get(settingUrl(student.id));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ remindersOn: true });

    const off = await student.client.put(settingUrl(student.id), { remindersOn: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ remindersOn: false });
    expect(await remindersOffOf(student.id)).toBe(true);
    expect((await student.client.get(settingUrl(student.id))).json()).toEqual({ remindersOn: false });

    const on = await student.client.put(settingUrl(student.id), { remindersOn: true });
    expect(on.json()).toEqual({ remindersOn: true });
    expect(await remindersOffOf(student.id)).toBe(false);
  });

  it('answers 401 to a caller who is not signed in, and changes nothing', async () => {
    const student = await createStudent(t.db);
    const read = await t.app.inject({ method: 'GET', url: settingUrl(student.id) });
    expect(read.statusCode).toBe(401);
    expect(read.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const write = await t.app.inject({ method: 'PUT', url: settingUrl(student.id), payload: { remindersOn: false } });
    expect(write.statusCode).toBe(401);
    expect(await remindersOffOf(student.id)).toBe(false);
  });

  it("refuses another student's setting and staff (403), and changes nothing", async () => {
    const owner = await createStudent(t.db);
    const stranger = await signedInStudent();
    const read = await stranger.client.get(settingUrl(owner.id));
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await stranger.client.put(settingUrl(owner.id), { remindersOn: false })).statusCode).toBe(403);

    const admin = await signedInStaff(t, 'super_admin');
    expect((await admin.put(settingUrl(owner.id), { remindersOn: false })).statusCode).toBe(403);
    expect(await remindersOffOf(owner.id)).toBe(false);
  });

  it('refuses a setting that is not true or false (400), and changes nothing', async () => {
    const student = await signedInStudent();
    for (const body of [{}, { remindersOn: 'false' }, { remindersOn: null }]) {
      const answer = await student.client.put(settingUrl(student.id), body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await remindersOffOf(student.id)).toBe(false);
  });

  it("does not change an archived enrolment's setting", async () => {
    const student = await signedInStudent();
    await archiveStudent(t.db, student.id, t.clock.now());
    const answer = await student.client.put(settingUrl(student.id), { remindersOn: false });
    // An archived enrolment's session is nobody's (plugins/session.ts), and the service keeps it as it was.
    expect(answer.statusCode).toBe(401);
    await expect(
      setReminderSetting(t.db, { studentId: student.id, setting: { remindersOn: false } }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await remindersOffOf(student.id)).toBe(false);
  });
});
