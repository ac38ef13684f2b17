import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Quiz, StaffRole } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { localDate } from '../../platform/clock.ts';
import { certificateCounters, certificates, sessions, students } from '../../db/schema.ts';
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  type CourseStudent,
  certificatesOf,
  createCourseStudent,
  deliveriesOf,
  onlyCertificateOf,
  passCourse,
  recordCourseCompletion,
  sequenceOf,
} from '../../testing/certificates.ts';
import { type ApiClient, answersFor, apiClient, recordChapterPassed } from '../../testing/course.ts';
import { buildRegistration, createCourt, createStaff } from '../../testing/factories.ts';
import { signInStaff, uniqueAddress } from '../../testing/sign-in.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { COURSE_NAME, DEFAULT_RULES_PROFILE, issueCertificate } from './certificates.service.ts';
import {
  processAllDueDeliveries,
  processDueDeliveries,
  resendDelivery,
  RETRY_FOR_MS,
  retryDelay,
} from './deliveries.service.ts';
import { getLinkKey, signDownloadPath } from './download-links.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const today = (t: TestApp) => t.clock.now().toISOString().slice(0, 10);
const yearOf = (t: TestApp) => String(t.clock.now().getUTCFullYear());

async function signedInStaff(t: TestApp, role: StaffRole, courtId: number | null = null): Promise<ApiClient> {
  const member = await createStaff(t.db, { role, courtId });
  return apiClient(t.app, await signInStaff(t.app, member));
}

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

  describe('issuing on a final pass', () => {
    it("dates the completion by the school's calendar, not UTC: 9 pm in Los Angeles is still that day", async () => {
      const student = await createCourseStudent(t);
      const before = t.clock.now();
      t.clock.set(new Date('2026-11-23T05:00:00Z')); // 9 pm on November 22 in America/Los_Angeles
      try {
        await recordCourseCompletion(t, student.id);
      } finally {
        t.clock.set(before);
      }
      const certificate = await onlyCertificateOf(t.db, student.id);
      expect(certificate.completionDate).toBe('2026-11-22');
    });

    it('issues exactly one certificate: a TS-<year>-NNNNNN number, a snapshot and two queued deliveries; the PDF and its SHA-256 follow', async () => {
      const student = await createCourseStudent(t, { firstName: 'José', lastName: 'Núñez', dob: '1988-07-04' });

      await passCourse(student.client, t.db, student.id);

      const certificates = await certificatesOf(t.db, student.id);
      expect(certificates).toHaveLength(1);
      const certificate = certificates[0]!;
      expect(certificate.number).toMatch(new RegExp(`^TS-${yearOf(t)}-\\d{6}$`));
      expect(certificate.source).toBe('completion');
      expect(certificate.completionDate).toBe(today(t));
      expect(certificate.issuedAt).toEqual(t.clock.now());
      expect(certificate.snapshot).toEqual({
        number: certificate.number,
        studentName: 'José Núñez',
        dlNumber: student.dlNumber,
        dateOfBirth: '07/04/1988',
        courtName: student.court.name,
        courseName: COURSE_NAME,
        completionDate: today(t),
        rulesProfile: DEFAULT_RULES_PROFILE,
        issuedAt: t.clock.now().toISOString(),
      });

      // Rendered after the grading transaction (issue 15): by the delivery worker or the first download.
      expect(certificate.pdf).toBeNull();
      expect(certificate.pdfSha256).toBeNull();

      const deliveries = await deliveriesOf(t.db, certificate.id);
      expect(deliveries).toEqual([
        expect.objectContaining({
          recipient: 'student',
          email: student.email,
          status: 'queued',
          attempts: 0,
          sentAt: null,
        }),
        expect.objectContaining({
          recipient: 'court',
          email: student.court.email,
          status: 'queued',
          attempts: 0,
          sentAt: null,
        }),
      ]);

      const downloaded = await student.client.get(`/api/certificates/${certificate.number}/pdf`);
      expect(downloaded.statusCode).toBe(200);
      const stored = await storedCertificate(t.db, certificate.id);
      expect(stored.pdf?.equals(downloaded.rawPayload)).toBe(true);
      expect(downloaded.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(stored.pdfSha256).toBe(sha256(downloaded.rawPayload));
      const document = await PDFDocument.load(downloaded.rawPayload);
      expect(document.getPageCount()).toBe(1);
      expect(document.getTitle()).toBe(`Certificate of Completion ${certificate.number}`);
      expect(deliveries.every((delivery) => delivery.nextAttemptAt.getTime() === t.clock.now().getTime())).toBe(true);

      const listed = await student.client.get(`/api/students/${String(student.id)}/certificate/all`);
      expect(listed.statusCode).toBe(200);
      expect(listed.json<Certificate[]>()).toEqual([
        {
          id: certificate.id,
          number: certificate.number,
          generated_at: t.clock.now().toISOString(),
          completion_date: today(t),
          file_url: `/api/certificates/${certificate.number}/pdf`,
          url: `/api/certificates/${certificate.number}/pdf`,
          routing: 'student_and_court',
          state_filed_at: null,
          timeline: [
            { step: 'passed', at: expect.any(String) as string, state: 'done' },
            { step: 'issued', at: t.clock.now().toISOString(), state: 'done' },
            { step: 'emailed_student', at: null, state: 'pending' },
            { step: 'sent_to_court', at: null, state: 'pending' },
            { step: 'court_acknowledged', at: null, state: 'pending' },
          ],
          replaces: null,
          superseded_at: null,
          deliveries: [
            { recipient: 'student', status: 'queued', sent_at: null },
            { recipient: 'court', status: 'queued', sent_at: null },
          ],
        },
      ]);
    });

    it('answers the student’s POST /api/pdf/certificate after the pass with that same certificate, however often and however many at once', async () => {
      const student = await completedStudent();
      const issue = () => student.client.post('/api/pdf/certificate', { studentId: student.id });

      const one = await issue();
      const again = await issue();
      const atOnce = await Promise.all([issue(), issue(), issue(), issue()]);

      for (const response of [one, again, ...atOnce]) {
        expect(response.statusCode).toBe(200);
        expect(response.json<Certificate>()).toMatchObject({
          id: student.certificate.id,
          number: student.certificate.number,
          completion_date: student.certificate.completionDate,
        });
      }
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
      expect(await deliveriesOf(t.db, student.certificate.id)).toHaveLength(2);
    });

    it('refuses POST /api/pdf/certificate before the course is complete with 409 COURSE_NOT_COMPLETE and issues nothing', async () => {
      const student = await createCourseStudent(t);
      const countersBefore = await t.db.select().from(certificateCounters);

      const response = await student.client.post('/api/pdf/certificate', { studentId: student.id });

      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('COURSE_NOT_COMPLETE');
      expect(await certificatesOf(t.db, student.id)).toEqual([]);
      expect(await t.db.select().from(certificateCounters)).toEqual(countersBefore);
    });

    it('does not let a student ask for another student’s certificate (404) or staff ask for a completion certificate (403)', async () => {
      const owner = await completedStudent();
      const other = await createCourseStudent(t);
      const byOther = await other.client.post('/api/pdf/certificate', { studentId: owner.id });
      expect(byOther.statusCode).toBe(404);

      const admin = await signedInStaff(t, 'super_admin');
      const byStaff = await admin.post('/api/pdf/certificate', { studentId: owner.id });
      expect(byStaff.statusCode).toBe(403);
      expect(await certificatesOf(t.db, owner.id)).toHaveLength(1);
    });

    it('queues only the student’s email when the court has no clerk address', async () => {
      const student = await createCourseStudent(t, {}, { email: null });
      await recordCourseCompletion(t, student.id);
      const certificate = await onlyCertificateOf(t.db, student.id);
      const deliveries = await deliveriesOf(t.db, certificate.id);
      expect(deliveries.map((delivery) => [delivery.recipient, delivery.email])).toEqual([['student', student.email]]);
    });
  });

  describe('certificate numbers', () => {
    it('gives two final passes submitted at the same moment two consecutive numbers', async () => {
      const first = await createCourseStudent(t);
      const second = await createCourseStudent(t);
      for (const student of [first, second]) {
        for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapter, t.clock.now());
      }
      const submissions = await Promise.all(
        [first, second].map(async (student) => {
          const drawn = await student.client.get(`/api/quiz/finalExamQuestions/${String(student.id)}`);
          const quiz = drawn.json<Quiz>();
          return {
            studentId: student.id,
            chapter: 6,
            attemptId: quiz.attemptId,
            questions: await answersFor(t.db, quiz, 20),
          };
        }),
      );

      const results = await Promise.all([
        first.client.post('/api/quiz/score', submissions[0]),
        second.client.post('/api/quiz/score', submissions[1]),
      ]);

      expect(results.map((result) => result.statusCode)).toEqual([200, 200]);
      const numbers = [
        (await onlyCertificateOf(t.db, first.id)).number,
        (await onlyCertificateOf(t.db, second.id)).number,
      ];
      const sequences = numbers.map(sequenceOf).sort((a, b) => a - b);
      expect(sequences[1]).toBe(sequences[0]! + 1);
      const [counter] = await t.db
        .select()
        .from(certificateCounters)
        .where(eq(certificateCounters.year, t.clock.now().getUTCFullYear()));
      expect(counter?.lastValue).toBe(sequences[1]);
    });

    it('numbers a certificate TS-<year>-<counter, padded to six digits>, keeping every digit past 999999', async () => {
      const student = await createCourseStudent(t);
      const year = Number(localDate(t.clock.now(), t.config.schoolTimeZone).slice(0, 4));
      const numbers: string[] = [];
      const issueAt = async (tx: Db, lastValue: number) => {
        await tx
          .insert(certificateCounters)
          .values({ year, lastValue })
          .onConflictDoUpdate({ target: certificateCounters.year, set: { lastValue } });
        const issued = await issueCertificate(
          tx,
          { clock: t.clock, config: t.config },
          { studentId: student.id, source: 'admin', completionDate: today(t), email: false },
        );
        const [row] = await tx.select().from(certificates).where(eq(certificates.id, issued.id));
        numbers.push(row?.number ?? '', (row?.snapshot as { number: string }).number);
      };
      // In a transaction rolled back at the end, so the file's other tests keep their counter.
      await expect(
        t.db.transaction(async (tx) => {
          await issueAt(tx, 41);
          await issueAt(tx, 1_234_566);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(numbers).toEqual([
        `TS-${String(year)}-000042`,
        `TS-${String(year)}-000042`,
        `TS-${String(year)}-1234567`,
        `TS-${String(year)}-1234567`,
      ]);
    });

    /** A student with chapters 1-4 recorded and the final drawn, with answers that pass it. */
    async function finalReadyToPass(student: CourseStudent) {
      for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapter, t.clock.now());
      const quiz = (await student.client.get(`/api/quiz/finalExamQuestions/${String(student.id)}`)).json<Quiz>();
      return {
        studentId: student.id,
        chapter: 6,
        attemptId: quiz.attemptId,
        questions: await answersFor(t.db, quiz, 20),
      };
    }

    /** This year's certificate counter (made, at 0, if no certificate was issued this year yet). */
    const yearCounter = async () => {
      const year = Number(localDate(t.clock.now(), t.config.schoolTimeZone).slice(0, 4));
      await t.db.insert(certificateCounters).values({ year, lastValue: 0 }).onConflictDoNothing();
      const [counter] = await t.db.select().from(certificateCounters).where(eq(certificateCounters.year, year));
      if (!counter) throw new Error('no counter');
      return counter;
    };

    it('grades a final pass, completes the course and issues its certificate all or nothing: when the number cannot be taken the attempt stays open to submit again', async () => {
      const student = await createCourseStudent(t);
      const submission = await finalReadyToPass(student);
      const counter = await yearCounter();
      // The counter at the largest value its column holds: taking the next number fails.
      await t.db
        .update(certificateCounters)
        .set({ lastValue: 2_147_483_647 })
        .where(eq(certificateCounters.year, counter.year));
      try {
        const failed = await student.client.post('/api/quiz/score', submission);
        expect(failed.statusCode).toBe(500);
        const [unchanged] = await t.db.select().from(students).where(eq(students.id, student.id));
        expect(unchanged?.completedAt).toBeNull();
        expect(await certificatesOf(t.db, student.id)).toEqual([]);
        expect((await student.client.get(`/api/students/${String(student.id)}/completedChapters`)).json()).toEqual([
          1, 2, 3, 4,
        ]);
      } finally {
        await t.db
          .update(certificateCounters)
          .set({ lastValue: counter.lastValue })
          .where(eq(certificateCounters.year, counter.year));
      }
      const retried = await student.client.post('/api/quiz/score', submission);
      expect(retried.json()).toMatchObject({ status: 'PASS' });
      expect(sequenceOf((await onlyCertificateOf(t.db, student.id)).number)).toBe(counter.lastValue + 1);
    });

    it('grades one of two submissions of the same passing final sent at once (a double click), with one certificate and one number', async () => {
      const student = await createCourseStudent(t);
      const submission = await finalReadyToPass(student);
      const counter = await yearCounter();

      const responses = await Promise.all([
        student.client.post('/api/quiz/score', submission),
        student.client.post('/api/quiz/score', submission),
      ]);

      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const certificate = await onlyCertificateOf(t.db, student.id);
      expect(sequenceOf(certificate.number)).toBe(counter.lastValue + 1);
      expect((await yearCounter()).lastValue).toBe(counter.lastValue + 1);
      expect(await deliveriesOf(t.db, certificate.id)).toHaveLength(2);
    });

    it('takes no number for a final passed by an enrolment that already holds its completion certificate', async () => {
      const student = await createCourseStudent(t);
      const submission = await finalReadyToPass(student);
      await recordCourseCompletion(t, student.id);
      const held = await onlyCertificateOf(t.db, student.id);
      const counter = await yearCounter();

      const passed = await student.client.post('/api/quiz/score', submission);

      expect(passed.json()).toMatchObject({ status: 'PASS' });
      expect((await onlyCertificateOf(t.db, student.id)).id).toBe(held.id);
      expect((await yearCounter()).lastValue).toBe(counter.lastValue);
    });

    it('consumes no number when issuing fails: an unknown student, or a transaction rolled back after the number was taken', async () => {
      const before = await completedStudent();
      const superAdmin = await signedInStaff(t, 'super_admin');

      const unknown = await issueAsAdmin(superAdmin, 999_999);
      expect(unknown.statusCode).toBe(404);

      const rolledBack = await createCourseStudent(t);
      await expect(
        t.db.transaction(async (tx) => {
          const issued = await issueCertificate(
            tx,
            { clock: t.clock, config: t.config },
            { studentId: rolledBack.id, source: 'completion', completionDate: today(t), email: true },
          );
          expect(issued.created).toBe(true);
          throw new Error('the grading transaction failed after the certificate was issued');
        }),
      ).rejects.toThrow('the grading transaction failed');
      expect(await certificatesOf(t.db, rolledBack.id)).toEqual([]);

      const after = await completedStudent();
      expect(sequenceOf(after.certificate.number)).toBe(sequenceOf(before.certificate.number) + 1);
    });
  });

  describe('downloading the PDF (GET /api/certificates/{number}/pdf)', () => {
    const pdfUrl = (number: string) => `/api/certificates/${number}/pdf`;

    it('gives the owner the stored PDF as an attachment named Certificate_Of_Completion.pdf', async () => {
      const student = await completedStudent();
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
      const student = await completedStudent();
      const other = await createCourseStudent(t);
      const byOther = await other.client.get(pdfUrl(student.certificate.number));
      expect(byOther.statusCode).toBe(404);
      expect(byOther.headers['content-type']).not.toBe('application/pdf');
      // Numbers are sequential: a stranger must not learn which ones are real (issue 13).
      const anonymous = await anonymousGet(t, pdfUrl(student.certificate.number));
      const neverIssued = await anonymousGet(t, pdfUrl('TS-1999-000001'));
      expect(anonymous.statusCode).toBe(404);
      expect(anonymous.body).toBe(neverIssued.body);
      expect(anonymous.headers['content-type']).toBe(neverIssued.headers['content-type']);
    });

    it('answers anonymous downloads beyond 30 a minute from one address with 429, as /verify does', async () => {
      const student = await completedStudent();
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
      const student = await completedStudent();
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
      const student = await completedStudent();
      const other = await completedStudent();
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

  describe('public verification (GET /api/public/verify/{number})', () => {
    it('confirms a genuine number with the completion date, the court and a masked name, and nothing that identifies the driver', async () => {
      const student = await completedStudent({ firstName: 'José', lastName: 'Núñez', dob: '1991-03-09' });

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
      const student = await completedStudent();
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

  describe('a super_admin issuing a new certificate (POST /api/pdf/certificate?noEmail=1)', () => {
    it('issues a new certificate with its own number and the date typed, sends no email, and keeps the old one', async () => {
      const student = await completedStudent();
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
      const student = await completedStudent();
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
      const student = await completedStudent();
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
      const student = await completedStudent();
      const member = await signedInStaff(t, role);
      const response = await issueAsAdmin(member, student.id);
      expect(response.statusCode).toBe(403);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });

    it('refuses a student who has not finished the course with 409 and issues nothing (issue 13)', async () => {
      const student = await createCourseStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');
      const response = await issueAsAdmin(superAdmin, student.id, 'January 1, 2023');
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('COURSE_NOT_COMPLETE');
      expect(await certificatesOf(t.db, student.id)).toEqual([]);
    });

    it('refuses the student themself with 403', async () => {
      const student = await completedStudent();
      const response = await issueAsAdmin(student.client, student.id);
      expect(response.statusCode).toBe(403);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });

    it.each([
      ['not written like January 1, 2023', 'Jan 1 2023'],
      ['in the future', 'January 1, 2099'],
      ['that is missing', undefined],
    ])('refuses a completion date %s with 400 and issues nothing', async (_label, completionDate) => {
      const student = await completedStudent();
      const superAdmin = await signedInStaff(t, 'super_admin');
      const response = await superAdmin.post('/api/pdf/certificate?noEmail=1', {
        studentId: student.id,
        completionDate,
      });
      expect(response.statusCode).toBe(400);
      expect(await certificatesOf(t.db, student.id)).toHaveLength(1);
    });
  });

  describe('retake (DELETE /api/students/{id}) and the archive', () => {
    const retake = (student: { id: number; cookie: string }, id = student.id) =>
      t.app.inject({ method: 'DELETE', url: `/api/students/${String(id)}`, headers: { cookie: student.cookie } });
    const findStudent = async (id: number) => (await t.db.select().from(students).where(eq(students.id, id)))[0];

    it('archives a completed enrolment (never deletes it), keeps its certificate and ends its session', async () => {
      const student = await completedStudent();

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
      const student = await completedStudent();
      const other = await completedStudent();
      const response = await retake(student, other.id);
      expect(response.statusCode).toBe(403);
      expect((await findStudent(other.id))?.archivedAt).toBeNull();
      expect((await findStudent(student.id))?.archivedAt).toBeNull();
    });

    it('lets the student register again with the same licence and email, and staff find the old certificate by either', async () => {
      const student = await completedStudent();
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
      const student = await completedStudent();
      const anonymous = await anonymousGet(t, `/api/students/archivedata/${student.dlNumber}`);
      expect(anonymous.statusCode).toBe(401);
      const byStudent = await student.client.get(`/api/students/archivedata/${student.dlNumber}`);
      expect(byStudent.statusCode).toBe(403);
      expect(byStudent.body).not.toContain(student.certificate.number);
    });
  });
});

describe('certificate delivery by email', () => {
  const FROM = 'Traffic School <certificates@traffic-school.example>';
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ rejectRecipients: (to) => to.startsWith('refusing.clerk') });
    mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: path.join(os.tmpdir(), 'ts-never-written') });
    t = await buildTestApp({ mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailer.close();
    await smtp.stop();
  });

  const deliver = () => processDueDeliveries(t.db, t.clock, t.config, mailer);
  const mailTo = (address: string | null) => smtp.messages.filter((message) => message.to.includes(address ?? '?'));

  async function completedStudent(courtOverrides: Parameters<typeof createCourseStudent>[2] = {}) {
    const student = await createCourseStudent(t, {}, courtOverrides);
    await recordCourseCompletion(t, student.id);
    const certificate = await onlyCertificateOf(t.db, student.id);
    return { ...student, certificate };
  }

  it("sends everything due in one worker round, batch after batch: six students' twelve emails", async () => {
    const students = [];
    for (let n = 0; n < 6; n += 1) students.push(await completedStudent());
    expect(await processAllDueDeliveries(t.db, t.clock, t.config, mailer)).toBe(12);
    for (const student of students) {
      expect(mailTo(student.email)).toHaveLength(1);
      expect(mailTo(student.court.email)).toHaveLength(1);
    }
    expect(await deliver()).toBe(0);
  });

  it('renders the PDF once when a download and the delivery worker ask for it at once, and mails those very bytes', async () => {
    const student = await completedStudent();
    const [downloaded, sent] = await Promise.all([
      student.client.get(`/api/certificates/${student.certificate.number}/pdf`),
      deliver(),
    ]);
    expect(sent).toBe(2);
    const { pdf, pdfSha256 } = await storedCertificate(t.db, student.certificate.id);
    expect(pdf && downloaded.rawPayload.equals(pdf)).toBe(true);
    expect(pdfSha256).toBe(sha256(downloaded.rawPayload));
    const mailed = [...mailTo(student.email), ...mailTo(student.court.email)];
    expect(mailed).toHaveLength(2);
    for (const mail of mailed) expect(pdf && mail.attachments[0]?.content.equals(pdf)).toBe(true);
  });

  it('sends the student and the court clerk each an email with the PDF attached, and shows both as sent', async () => {
    const student = await completedStudent();
    const { certificate } = student;

    expect(await deliver()).toBe(2);

    const [toStudent, ...moreToStudent] = mailTo(student.email);
    const [toClerk, ...moreToClerk] = mailTo(student.court.email);
    expect(moreToStudent).toEqual([]);
    expect(moreToClerk).toEqual([]);
    for (const mail of [toStudent, toClerk]) {
      expect(mail?.from).toBe('certificates@traffic-school.example');
      expect(mail?.attachments).toHaveLength(1);
      const attachment = mail!.attachments[0]!;
      expect(attachment.filename).toBe('Certificate_Of_Completion.pdf');
      expect(attachment.contentType).toBe('application/pdf');
      const { pdf } = await storedCertificate(t.db, certificate.id);
      expect(pdf && attachment.content.equals(pdf)).toBe(true);
      expect((await PDFDocument.load(attachment.content)).getPageCount()).toBe(1);
    }
    expect(toStudent?.subject).toBe(`Your certificate of completion (${certificate.number})`);
    expect(toStudent?.messageId).toBe(`<certificate-${String(certificate.id)}-student@traffic-school.local>`);
    expect(toClerk?.subject).toContain(certificate.number);
    expect(toClerk?.text).toContain(`Dear Clerk of the ${student.court.name}`);
    expect(toClerk?.messageId).toBe(`<certificate-${String(certificate.id)}-court@traffic-school.local>`);

    const deliveries = await deliveriesOf(t.db, certificate.id);
    expect(deliveries.map((d) => [d.recipient, d.status, d.attempts, d.sentAt, d.lastError])).toEqual([
      ['student', 'sent', 1, t.clock.now(), null],
      ['court', 'sent', 1, t.clock.now(), null],
    ]);
    const listed = await student.client.get(`/api/students/${String(student.id)}/certificate/all`);
    expect(listed.json<Certificate[]>()[0]?.deliveries).toEqual([
      { recipient: 'student', status: 'sent', sent_at: t.clock.now().toISOString() },
      { recipient: 'court', status: 'sent', sent_at: t.clock.now().toISOString() },
    ]);

    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toHaveLength(1);
  });

  it('keeps both emails queued with a retry time while the mail server is down, and sends each exactly once when it is back', async () => {
    const student = await completedStudent();
    await smtp.stop();

    expect(await deliver()).toBe(0);

    const failedAt = t.clock.now();
    const waiting = await deliveriesOf(t.db, student.certificate.id);
    expect(waiting).toHaveLength(2);
    for (const delivery of waiting) {
      expect(delivery.status).toBe('queued');
      expect(delivery.attempts).toBe(1);
      expect(delivery.lastError).toMatch(/not delivered/);
      expect(delivery.nextAttemptAt).toEqual(new Date(failedAt.getTime() + retryDelay(1)));
      expect(delivery.nextAttemptAt.getTime()).toBeGreaterThan(failedAt.getTime());
    }

    await smtp.restart();
    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toEqual([]);

    t.clock.advance(HOUR);
    expect(await deliver()).toBe(2);
    expect(await deliver()).toBe(0);
    t.clock.advance(HOUR);
    expect(await deliver()).toBe(0);

    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toHaveLength(1);
    const messageIds = smtp.messages.map((message) => message.messageId);
    expect(messageIds.filter((id) => id.startsWith(`<certificate-${String(student.certificate.id)}-`))).toHaveLength(2);
    const sent = await deliveriesOf(t.db, student.certificate.id);
    expect(sent.map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
    ]);
  });

  it('sends each email once when two delivery rounds run at the same time', async () => {
    const student = await completedStudent();

    const [one, two] = await Promise.all([deliver(), deliver()]);

    expect(one + two).toBe(2);
    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toHaveLength(1);
  });

  it('never sends an email twice when a slow mail server makes a round outlast its lease and another instance’s round starts', async () => {
    const finishers = [await completedStudent(), await completedStudent(), await completedStudent()];
    let sends = 0;
    // A mail server that takes a minute per message: the sixth send starts after the five-minute
    // lease of the round's claim has run out, and another instance's worker runs a round then.
    // Whatever either round leaves undone, a later round sends; nothing may arrive twice.
    const slowMailer: Mailer = {
      kind: 'smtp',
      close: () => Promise.resolve(),
      async send(message) {
        sends += 1;
        t.clock.advance(MINUTE);
        if (sends === 6) await deliver();
        return mailer.send(message);
      },
    };

    await processDueDeliveries(t.db, t.clock, t.config, slowMailer);
    await deliver();

    for (const student of finishers) {
      expect(mailTo(student.email)).toHaveLength(1);
      expect(mailTo(student.court.email)).toHaveLength(1);
    }
  });

  it('retries with backoff for RETRY_FOR_MS, then leaves the delivery failed until an admin resends it', async () => {
    const student = await completedStudent();
    const queuedAt = t.clock.now();
    await smtp.stop();

    let rounds = 0;
    let lastQueuedRound = queuedAt;
    for (;;) {
      const roundAt = t.clock.now();
      await deliver();
      const [delivery] = await deliveriesOf(t.db, student.certificate.id);
      rounds += 1;
      if (delivery?.status !== 'queued' || rounds > 100) break;
      lastQueuedRound = roundAt;
      expect(delivery.nextAttemptAt.getTime() - roundAt.getTime()).toBe(retryDelay(delivery.attempts));
      t.clock.set(delivery.nextAttemptAt);
    }

    expect(lastQueuedRound.getTime() - queuedAt.getTime()).toBeLessThan(RETRY_FOR_MS);
    expect(t.clock.now().getTime() - queuedAt.getTime()).toBeGreaterThanOrEqual(RETRY_FOR_MS);
    const deadLetters = await deliveriesOf(t.db, student.certificate.id);
    expect(deadLetters.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', rounds],
      ['failed', rounds],
    ]);

    await smtp.restart();
    t.clock.advance(DAY);
    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toEqual([]);

    const admin = await createStaff(t.db, { role: 'admin' });
    await resendDelivery(t.db, { clock: t.clock, staffId: admin.id }, { deliveryId: deadLetters[0]!.id });
    const [resent] = await deliveriesOf(t.db, student.certificate.id);
    expect(resent?.status).toBe('queued');
    expect(await deliver()).toBe(1);
    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toEqual([]);
    expect((await deliveriesOf(t.db, student.certificate.id)).map((d) => d.status)).toEqual(['sent', 'failed']);
  });

  it('marks a delivery the mail server refuses for good (550) failed at once, and still sends the student’s', async () => {
    const student = await completedStudent({ email: 'refusing.clerk@court.example' });

    expect(await deliver()).toBe(1);

    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo('refusing.clerk@court.example')).toEqual([]);
    const [toStudent, toCourt] = await deliveriesOf(t.db, student.certificate.id);
    expect(toStudent?.status).toBe('sent');
    expect(toCourt).toMatchObject({ recipient: 'court', status: 'failed', attempts: 1 });
    expect(toCourt?.lastError).toContain('550');

    t.clock.advance(2 * HOUR);
    expect(await deliver()).toBe(0);
    expect((await deliveriesOf(t.db, student.certificate.id))[1]?.attempts).toBe(1);
  });
});
