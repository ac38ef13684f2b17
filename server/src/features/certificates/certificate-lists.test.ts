import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, StaffRole } from '@ts/contract';
import { students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  type CourseStudent,
  createCourseStudent,
  onlyCertificateOf,
  recordCourseCompletion,
} from '../../testing/certificates.ts';
import { type ApiClient, apiClient } from '../../testing/course.ts';
import { createCourt, createStaff } from '../../testing/factories.ts';
import { signInStaff } from '../../testing/sign-in.ts';

async function signedInStaff(t: TestApp, role: StaffRole, courtId: number | null = null): Promise<ApiClient> {
  const member = await createStaff(t.db, { role, courtId });
  return apiClient(t.app, await signInStaff(t.app, member));
}

describe('certificates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A student who has passed the final (recorded as the grading transaction records it). */
  async function completedStudent(
    overrides: Partial<typeof students.$inferInsert> = {},
  ): Promise<CourseStudent & { certificate: Awaited<ReturnType<typeof onlyCertificateOf>> }> {
    const student = await createCourseStudent(t, overrides);
    await recordCourseCompletion(t, student.id);
    return { ...student, certificate: await onlyCertificateOf(t.db, student.id) };
  }

  const issueAsAdmin = (client: ApiClient, studentId: number, completionDate = 'January 1, 2023') =>
    client.post('/api/pdf/certificate?noEmail=1', { studentId, completionDate });

  describe('the latest certificate (GET /api/students/{id}/certificate)', () => {
    it('answers the url and number of the newest certificate, a super_admin’s new one once there is one', async () => {
      const student = await completedStudent();
      const latestUrl = `/api/students/${String(student.id)}/certificate`;

      const first = await student.client.get(latestUrl);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        url: `/api/certificates/${student.certificate.number}/pdf`,
        number: student.certificate.number,
      });

      const superAdmin = await signedInStaff(t, 'super_admin');
      const reissued = (await issueAsAdmin(superAdmin, student.id)).json<Certificate>();
      const second = await student.client.get(latestUrl);
      expect(second.json()).toEqual({ url: `/api/certificates/${reissued.number}/pdf`, number: reissued.number });
    });

    it('answers 404 before there is a certificate and for another student’s id', async () => {
      const student = await createCourseStudent(t);
      const other = await completedStudent();
      expect((await student.client.get(`/api/students/${String(student.id)}/certificate`)).statusCode).toBe(404);
      const otherId = await student.client.get(`/api/students/${String(other.id)}/certificate`);
      expect(otherId.statusCode).toBe(404);
      expect(otherId.body).not.toContain(other.certificate.number);
      expect((await student.client.get(`/api/students/${String(other.id)}/certificate/all`)).statusCode).toBe(404);
    });

    it('answers staff whose scope covers the student’s court and 404 to an admin limited to another court', async () => {
      const student = await completedStudent();
      const otherCourt = await createCourt(t.db);
      const latestUrl = `/api/students/${String(student.id)}/certificate`;
      const cases: [ApiClient, number][] = [
        [await signedInStaff(t, 'super_admin'), 200],
        [await signedInStaff(t, 'admin', student.court.id), 200],
        [await signedInStaff(t, 'admin', otherCourt.id), 404],
      ];
      for (const [client, status] of cases) {
        const response = await client.get(latestUrl);
        expect(response.statusCode).toBe(status);
        if (status === 200) expect(response.json()).toMatchObject({ number: student.certificate.number });
        else expect(response.body).not.toContain(student.certificate.number);
      }
    });
  });
});
