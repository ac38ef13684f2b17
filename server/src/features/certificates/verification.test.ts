import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { completedStudent } from '../../testing/certificates.ts';
import { uniqueAddress } from '../../testing/sign-in.ts';

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

  describe('public verification (GET /api/public/verify/{number})', () => {
    it('confirms a genuine number with the completion date, the court and a masked name, and nothing that identifies the driver', async () => {
      const student = await completedStudent(t, { firstName: 'José', lastName: 'Núñez', dob: '1991-03-09' });

      const response = await anonymousGet(t, `/api/public/verify/${student.certificate.number}`);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        valid: true,
        number: student.certificate.number,
        completion_date: student.certificate.completionDate,
        court_name: student.court.name,
        student_name: 'J. N.',
        superseded_by: null,
        superseded_at: null,
      });
      for (const secret of [student.dlNumber, '1991-03-09', '03/09/1991', student.email, 'Núñez', 'José', 'N*']) {
        expect(response.body).not.toContain(secret);
      }
    });

    it('finds a number typed in lower case', async () => {
      const student = await completedStudent(t);
      const response = await anonymousGet(t, `/api/public/verify/${student.certificate.number.toLowerCase()}`);
      expect(response.json()).toMatchObject({ valid: true, number: student.certificate.number });
    });

    it('says an unknown number is not valid, with nothing else', async () => {
      const response = await anonymousGet(t, '/api/public/verify/TS-2026-999999');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        valid: false,
        number: 'TS-2026-999999',
        completion_date: null,
        court_name: null,
        student_name: null,
        superseded_by: null,
        superseded_at: null,
      });
    });

    it('answers 30 checks a minute from one address and the 31st with 429, while another address is still answered', async () => {
      const address = uniqueAddress();
      for (let i = 0; i < 30; i++) {
        expect((await anonymousGet(t, '/api/public/verify/TS-2026-999999', address)).statusCode).toBe(200);
      }
      const limited = await anonymousGet(t, '/api/public/verify/TS-2026-999999', address);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('TOO_MANY_REQUESTS');
      expect((await anonymousGet(t, '/api/public/verify/TS-2026-999999', uniqueAddress())).statusCode).toBe(200);
    });
  });
});
