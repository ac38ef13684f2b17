import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { signedInStaff } from '../../testing/course.ts';
import { createCourt, createStudent, type CreatedStudent } from '../../testing/factories.ts';

/** Decision 056: staff who may correct a student's contact details change the language of their emails. */
describe("the language of a student's emails, on the admin student page", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const storedLanguage = async (studentId: number) => {
    const [row] = await t.db.select({ language: students.language }).from(students).where(eq(students.id, studentId));
    return row?.language;
  };
  /** The contact form's save as the page sends it: the student's details as they are, and a language. */
  const contactWith = (student: CreatedStudent, language: unknown) => ({
    email: student.email,
    address: student.address,
    city: 'Fresno',
    state: 'CA',
    zip: '93721',
    resend: false,
    language,
  });

  it("shows the student's language, and an admin changes it, audited with the contact details", async () => {
    const student = await createStudent(t.db);
    const admin = await signedInStaff(t, 'admin');
    expect((await admin.get(`/api/admin/students/${String(student.id)}`)).json()).toMatchObject({ language: 'en' });

    const saved = await admin.put(`/api/admin/students/${String(student.id)}/contact`, contactWith(student, 'es'));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: student.id, language: 'es' });
    expect(await storedLanguage(student.id)).toBe('es');
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'student'), eq(auditLog.entityId, student.id)));
    expect(entry).toMatchObject({
      staffId: admin.member.id,
      action: 'update_contact',
      before: expect.objectContaining({ language: 'en' }) as unknown,
      after: expect.objectContaining({ language: 'es' }) as unknown,
    });
  });

  it('leaves the language as it is when the form sends none', async () => {
    const student = await createStudent(t.db, { language: 'es' });
    const admin = await signedInStaff(t, 'admin');
    const { language: _none, ...withoutLanguage } = contactWith(student, undefined);
    const saved = await admin.put(`/api/admin/students/${String(student.id)}/contact`, withoutLanguage);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await storedLanguage(student.id)).toBe('es');
  });

  it("lets a court's own admin change it for their court's student, and answers 404 to another court's admin", async () => {
    const [courtA, courtB] = [await createCourt(t.db), await createCourt(t.db)];
    const student = await createStudent(t.db, { courtId: courtA.id });
    const ownAdmin = await signedInStaff(t, 'admin', courtA.id);
    const otherAdmin = await signedInStaff(t, 'admin', courtB.id);

    const refused = await otherAdmin.put(
      `/api/admin/students/${String(student.id)}/contact`,
      contactWith(student, 'es'),
    );
    expect(refused.statusCode).toBe(404);
    expect(await storedLanguage(student.id)).toBe('en');

    const saved = await ownAdmin.put(`/api/admin/students/${String(student.id)}/contact`, contactWith(student, 'es'));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await storedLanguage(student.id)).toBe('es');
  });

  it("refuses clerks, of the student's court or another (decision 011: clerks do not edit students), and changes nothing", async () => {
    const [courtA, courtB] = [await createCourt(t.db), await createCourt(t.db)];
    const student = await createStudent(t.db, { courtId: courtA.id });
    for (const clerk of [
      await signedInStaff(t, 'clerk', courtA.id),
      await signedInStaff(t, 'clerk', courtB.id),
      await signedInStaff(t, 'clerk'),
    ]) {
      const response = await clerk.put(`/api/admin/students/${String(student.id)}/contact`, contactWith(student, 'es'));
      expect(response.statusCode).toBe(403);
    }
    expect(await storedLanguage(student.id)).toBe('en');
  });

  it('refuses a language the school does not offer with a 400, and changes nothing', async () => {
    const student = await createStudent(t.db);
    const admin = await signedInStaff(t, 'admin');
    for (const language of ['fr', 'EN', '', null, 3]) {
      const response = await admin.put(`/api/admin/students/${String(student.id)}/contact`, {
        ...contactWith(student, language),
        email: 'changed@example.com',
      });
      expect(response.statusCode, String(language)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await storedLanguage(student.id)).toBe('en');
    const [row] = await t.db.select({ email: students.email }).from(students).where(eq(students.id, student.id));
    expect(row?.email).toBe(student.email);
  });
});
