import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate } from '@ts/contract';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourseStudent, completedStudent } from '../../testing/certificates.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';
import { createCourt } from '../../testing/factories.ts';

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

  describe('the latest certificate (GET /api/students/{id}/certificate)', () => {
    it('answers the url and number of the newest certificate, a super_admin’s new one once there is one', async () => {
      const student = await completedStudent(t);
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
      const other = await completedStudent(t);
      expect((await student.client.get(`/api/students/${String(student.id)}/certificate`)).statusCode).toBe(404);
      const otherId = await student.client.get(`/api/students/${String(other.id)}/certificate`);
      expect(otherId.statusCode).toBe(404);
      expect(otherId.body).not.toContain(other.certificate.number);
      expect((await student.client.get(`/api/students/${String(other.id)}/certificate/all`)).statusCode).toBe(404);
    });

    it('answers staff whose scope covers the student’s court and 404 to an admin limited to another court', async () => {
      const student = await completedStudent(t);
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
