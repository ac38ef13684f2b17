import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { certificatesOf, createCourseStudent, completedStudent } from '../../testing/certificates.ts';
import { signedInStaff } from '../../testing/course.ts';
import { buildRegistration, createCourt } from '../../testing/factories.ts';

const anonymousGet = (t: TestApp, url: string, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url, ...(remoteAddress ? { remoteAddress } : {}) });

describe('certificates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('retake (DELETE /api/students/{id}) and the archive', () => {
    const retake = (student: { id: number; cookie: string }, id = student.id) =>
      t.app.inject({ method: 'DELETE', url: `/api/students/${String(id)}`, headers: { cookie: student.cookie } });
    const findStudent = async (id: number) => (await t.db.select().from(students).where(eq(students.id, id)))[0];

    it('archives a completed enrolment (never deletes it), keeps its certificate and ends its session', async () => {
      const student = await completedStudent(t);

      const response = await retake(student);

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await findStudent(student.id)).toMatchObject({
        archivedAt: t.clock.now(),
        archiveReason: 'retake',
        completedAt: expect.any(Date) as Date,
      });
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
      const enrolmentSessions = await t.db.select().from(sessions).where(eq(sessions.studentId, student.id));
      expect(enrolmentSessions.map((session) => session.endedAt)).toEqual([t.clock.now()]);
      expect((await student.client.get('/api/me')).statusCode).toBe(401);
      const verified = await anonymousGet(t, `/api/public/verify/${student.certificate.number}`);
      expect(verified.json()).toMatchObject({ valid: true });
    });

    it('refuses a retake before the course is complete with 409 and archives nothing', async () => {
      const student = await createCourseStudent(t);
      const response = await retake(student);
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('COURSE_NOT_COMPLETE');
      expect((await findStudent(student.id))?.archivedAt).toBeNull();
      expect((await student.client.get('/api/me')).statusCode).toBe(200);
    });

    it('refuses a retake of another student’s enrolment with 403', async () => {
      const student = await completedStudent(t);
      const other = await completedStudent(t);
      const response = await retake(student, other.id);
      expect(response.statusCode).toBe(403);
      expect((await findStudent(other.id))?.archivedAt).toBeNull();
      expect((await findStudent(student.id))?.archivedAt).toBeNull();
    });

    it('lets the student register again with the same licence and email, and staff find the old certificate by either', async () => {
      const student = await completedStudent(t);
      expect((await retake(student)).statusCode).toBe(204);

      const registration = buildRegistration({
        last_name: student.lastName,
        dl_number: student.dlNumber,
        email: student.email,
        court: student.court.id,
      });
      const registered = await t.app.inject({ method: 'POST', url: '/api/register/student', payload: registration });
      expect(registered.statusCode).toBe(201);
      expect(registered.json<{ studentId: number }>().studentId).not.toBe(student.id);

      const expected = [
        {
          id: student.certificate.id,
          number: student.certificate.number,
          generated_at: student.certificate.issuedAt.toISOString(),
          dl_number: student.dlNumber,
          email: student.email,
          file_url: `/api/certificates/${student.certificate.number}/pdf`,
        },
      ];
      const admin = await signedInStaff(t, 'admin');
      const byLicence = await admin.get(`/api/students/archivedata/${student.dlNumber}`);
      expect(byLicence.statusCode).toBe(200);
      expect(byLicence.json()).toEqual(expected);
      const byEmail = await admin.get(`/api/students/archivedata/${encodeURIComponent(student.email)}`);
      expect(byEmail.json()).toEqual(expected);
      const typedLoosely = await admin.get(`/api/students/archivedata/${student.dlNumber.toLowerCase()}`);
      expect(typedLoosely.json()).toEqual(expected);

      const sameCourt = await signedInStaff(t, 'admin', student.court.id);
      expect((await sameCourt.get(`/api/students/archivedata/${student.dlNumber}`)).json()).toEqual(expected);
      const otherCourt = await signedInStaff(t, 'admin', (await createCourt(t.db)).id);
      const hidden = await otherCourt.get(`/api/students/archivedata/${student.dlNumber}`);
      expect(hidden.statusCode).toBe(200);
      expect(hidden.json()).toEqual([]);
    });

    it('keeps the archive search to staff: 401 without a session, 403 for a student', async () => {
      const student = await completedStudent(t);
      const anonymous = await anonymousGet(t, `/api/students/archivedata/${student.dlNumber}`);
      expect(anonymous.statusCode).toBe(401);
      const byStudent = await student.client.get(`/api/students/archivedata/${student.dlNumber}`);
      expect(byStudent.statusCode).toBe(403);
      expect(byStudent.body).not.toContain(student.certificate.number);
    });
  });
});
