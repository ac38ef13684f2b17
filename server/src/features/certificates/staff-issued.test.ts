import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, StaffRole } from '@ts/contract';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  certificatesOf,
  createCourseStudent,
  deliveriesOf,
  sequenceOf,
  completedStudent,
} from '../../testing/certificates.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';

describe('certificates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const issueAsAdmin = (client: ApiClient, studentId: number, completionDate = 'January 1, 2023') =>
    client.post('/api/pdf/certificate?noEmail=1', { studentId, completionDate });

  describe('a super_admin issuing a new certificate (POST /api/pdf/certificate?noEmail=1)', () => {
    it('issues a new certificate with its own number and the date typed, sends no email, and keeps the old one', async () => {
      const student = await completedStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');

      const response = await issueAsAdmin(superAdmin, student.id, 'January 1, 2023');

      expect(response.statusCode).toBe(200);
      const issued = response.json<Certificate>();
      expect(issued).toMatchObject({ completion_date: '2023-01-01', deliveries: [] });
      expect(sequenceOf(issued.number)).toBe(sequenceOf(student.certificate.number) + 1);
      const stored = await certificatesOf(t.db, student.id);
      expect(stored.map((row) => [row.number, row.source, row.completionDate])).toEqual([
        [student.certificate.number, 'completion', student.certificate.completionDate],
        [issued.number, 'admin', '2023-01-01'],
      ]);
      expect(stored[1]?.issuedByStaffId).toEqual(expect.any(Number));
      expect((stored[1]?.snapshot as { completionDate: string }).completionDate).toBe('2023-01-01');
      expect(await deliveriesOf(t.db, issued.id)).toEqual([]);

      const listed = await superAdmin.get(`/api/students/${String(student.id)}/certificate/all`);
      expect(listed.json<Certificate[]>().map((certificate) => certificate.number)).toEqual([
        issued.number,
        student.certificate.number,
      ]);
    });

    it('answers the same request sent twice at once, or again within a minute, with one certificate (decision 040)', async () => {
      const student = await completedStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');

      const [first, second] = await Promise.all([
        issueAsAdmin(superAdmin, student.id, 'January 1, 2023'),
        issueAsAdmin(superAdmin, student.id, 'January 1, 2023'),
      ]);
      t.clock.advance(30_000);
      const third = await issueAsAdmin(superAdmin, student.id, 'January 1, 2023');

      const numbers = [first, second, third].map((response) => response.json<Certificate>().number);
      expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([200, 200, 200]);
      expect(new Set(numbers).size).toBe(1);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(2);
    });

    it('issues again when a minute has passed, or for another completion date', async () => {
      const student = await completedStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');
      const first = (await issueAsAdmin(superAdmin, student.id, 'January 1, 2023')).json<Certificate>();
      const otherDate = (await issueAsAdmin(superAdmin, student.id, 'January 2, 2023')).json<Certificate>();
      t.clock.advance(61_000);
      const later = (await issueAsAdmin(superAdmin, student.id, 'January 1, 2023')).json<Certificate>();
      expect(new Set([first.number, otherDate.number, later.number]).size).toBe(3);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(4);
    });

    it.each<[string, StaffRole]>([
      ['an admin', 'admin'],
      ['a clerk', 'clerk'],
    ])('refuses %s with 403 and issues nothing', async (_label, role) => {
      const student = await completedStudent(t);
      const member = await signedInStaff(t, role);
      const response = await issueAsAdmin(member, student.id);
      expect(response.statusCode).toBe(403);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });

    it('refuses a student who has not finished the course with 409 and issues nothing (decision 016)', async () => {
      const student = await createCourseStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');
      const response = await issueAsAdmin(superAdmin, student.id, 'January 1, 2023');
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('COURSE_NOT_COMPLETE');
      expect(await certificatesOf(t.db, student.id)).toEqual([]);
    });

    it('refuses the student themself with 403', async () => {
      const student = await completedStudent(t);
      const response = await issueAsAdmin(student.client, student.id);
      expect(response.statusCode).toBe(403);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });

    it.each([
      ['not written like January 1, 2023', 'Jan 1 2023'],
      ['in the future', 'January 1, 2099'],
      ['that is missing', undefined],
    ])('refuses a completion date %s with 400 and issues nothing', async (_label, completionDate) => {
      const student = await completedStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');
      const response = await superAdmin.post('/api/pdf/certificate?noEmail=1', {
        studentId: student.id,
        completionDate,
      });
      expect(response.statusCode).toBe(400);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });
  });
});
