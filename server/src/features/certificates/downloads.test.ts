import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { certificates } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourseStudent, completedStudent } from '../../testing/certificates.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';
import { createCourt } from '../../testing/factories.ts';
import { uniqueAddress } from '../../testing/sign-in.ts';
import { getLinkKey, signDownloadPath } from './download-links.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A certificate row as stored now (its PDF is stored by the first download or delivery). */
async function storedCertificate(db: Db, id: number) {
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  if (!row) throw new Error(`no certificate ${String(id)}`);
  return row;
}

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

  describe('downloading the PDF (GET /api/certificates/{number}/pdf)', () => {
    const pdfUrl = (number: string) => `/api/certificates/${number}/pdf`;

    it('gives the owner the stored PDF as an attachment named Certificate_Of_Completion.pdf', async () => {
      const student = await completedStudent(t);
      const response = await student.client.get(pdfUrl(student.certificate.number));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('attachment; filename="Certificate_Of_Completion.pdf"');
      expect(response.headers['cache-control']).toBe('private, no-store');
      const stored = await storedCertificate(t.db, student.certificate.id);
      expect(stored.pdf && response.rawPayload.equals(stored.pdf)).toBe(true);
      expect(sha256(response.rawPayload)).toBe(stored.pdfSha256);
    });

    it('hides a certificate from another student and from an anonymous caller with the 404 of a number never issued', async () => {
      const student = await completedStudent(t);
      const other = await createCourseStudent(t);
      const byOther = await other.client.get(pdfUrl(student.certificate.number));
      expect(byOther.statusCode).toBe(404);
      expect(byOther.headers['content-type']).not.toBe('application/pdf');
      // Numbers are sequential: a stranger must not learn which ones are real (decision 016).
      const anonymous = await anonymousGet(t, pdfUrl(student.certificate.number));
      const neverIssued = await anonymousGet(t, pdfUrl('TS-1999-000001'));
      expect(anonymous.statusCode).toBe(404);
      // Byte for byte, but for each request's own id (decision 060).
      const withoutId = (response: typeof anonymous) =>
        response.body.replace(String(response.headers['x-request-id']), '');
      expect(withoutId(anonymous)).toBe(withoutId(neverIssued));
      expect(anonymous.headers['content-type']).toBe(neverIssued.headers['content-type']);
    });

    it('answers anonymous downloads beyond 30 a minute from one address with 429, as /verify does', async () => {
      const student = await completedStudent(t);
      const remoteAddress = uniqueAddress();
      const statuses: number[] = [];
      for (let n = 0; n < 31; n += 1) {
        const number = `TS-2026-${String(900000 + n)}`;
        statuses.push((await t.app.inject({ method: 'GET', url: pdfUrl(number), remoteAddress })).statusCode);
      }
      expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
      expect(statuses[30]).toBe(429);
      const real = await t.app.inject({ method: 'GET', url: pdfUrl(student.certificate.number), remoteAddress });
      expect(real.statusCode).toBe(429);
    });

    it('gives it to staff whose scope covers the student’s court and hides it from an admin limited to another court', async () => {
      const student = await completedStudent(t);
      const otherCourt = await createCourt(t.db);
      const cases: [ApiClient, number][] = [
        [await signedInStaff(t, 'super_admin'), 200],
        [await signedInStaff(t, 'clerk'), 200],
        [await signedInStaff(t, 'admin', student.court.id), 200],
        [await signedInStaff(t, 'admin', otherCourt.id), 404],
      ];
      for (const [client, status] of cases) {
        const response = await client.get(pdfUrl(student.certificate.number));
        expect(response.statusCode).toBe(status);
        const { pdf } = await storedCertificate(t.db, student.certificate.id);
        if (status === 200) expect(pdf && response.rawPayload.equals(pdf)).toBe(true);
      }
    });

    it('answers 404 for a number that was never issued, whoever asks', async () => {
      const admin = await signedInStaff(t, 'super_admin');
      expect((await admin.get(pdfUrl('TS-1999-000001'))).statusCode).toBe(404);
      expect((await anonymousGet(t, pdfUrl('TS-1999-000001'))).statusCode).toBe(404);
    });

    it('serves a signed link from an email without a session for 30 days, and never a tampered or expired one', async () => {
      const student = await completedStudent(t);
      const other = await completedStudent(t);
      const link = signDownloadPath(await getLinkKey(t.db), student.certificate.number, t.clock.now());
      const url = new URL(link, 'http://localhost');
      const signature = url.searchParams.get('signature')!;
      const expires = Number(url.searchParams.get('expires'));

      const signed = await anonymousGet(t, link);
      expect(signed.statusCode).toBe(200);
      const { pdf } = await storedCertificate(t.db, student.certificate.id);
      expect(pdf && signed.rawPayload.equals(pdf)).toBe(true);

      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const tampered = [
        `${pdfUrl(student.certificate.number)}?expires=${String(expires)}&signature=${flipped}`,
        `${pdfUrl(student.certificate.number)}?expires=${String(expires + 365 * 86_400)}&signature=${signature}`,
        `${pdfUrl(other.certificate.number)}?expires=${String(expires)}&signature=${signature}`,
        `${pdfUrl(student.certificate.number)}?expires=${String(expires)}`,
      ];
      for (const tamperedUrl of tampered) {
        expect((await anonymousGet(t, tamperedUrl)).statusCode).toBe(404);
      }

      t.clock.advance(29 * DAY);
      expect((await anonymousGet(t, link)).statusCode).toBe(200);
      t.clock.advance(2 * DAY);
      const expired = await anonymousGet(t, link);
      expect(expired.statusCode).toBe(404);
      expect(expired.headers['content-type']).not.toBe('application/pdf');
    });
  });
});
