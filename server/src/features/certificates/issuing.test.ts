import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Quiz } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { localDate } from '../../platform/clock.ts';
import { certificateCounters, certificates, students } from '../../db/schema.ts';
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
  completedStudent,
} from '../../testing/certificates.ts';
import { type ApiClient, answersFor, recordChapterPassed, signedInStaff } from '../../testing/course.ts';
import { COURSE_NAME, DEFAULT_RULES_PROFILE } from './certificate-snapshot.ts';
import { issueCertificate } from './issuing.service.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const today = (t: TestApp) => t.clock.now().toISOString().slice(0, 10);
const yearOf = (t: TestApp) => String(t.clock.now().getUTCFullYear());

/** A certificate row as stored now (its PDF is stored by the first download or delivery). */
async function storedCertificate(db: Db, id: number) {
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  if (!row) throw new Error(`no certificate ${String(id)}`);
  return row;
}

describe('issuing certificates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

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
        courtState: expect.stringMatching(/^[A-Z]{2}$/),
        courseName: COURSE_NAME,
        completionDate: today(t),
        rulesProfile: DEFAULT_RULES_PROFILE,
        issuedAt: t.clock.now().toISOString(),
      });

      // Rendered after the grading transaction (decision 019): by the delivery worker or the first download.
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
      const student = await completedStudent(t);
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
      const owner = await completedStudent(t);
      const other = await createCourseStudent(t);
      const byOther = await other.client.post('/api/pdf/certificate', { studentId: owner.id });
      expect(byOther.statusCode).toBe(404);

      const admin = await signedInStaff(t, 'super_admin');
      const byStaff = await admin.post('/api/pdf/certificate', { studentId: owner.id });
      expect(byStaff.statusCode).toBe(403);
      expect(await certificatesOf(t.db, owner.id)).toHaveLength(1);
    });

    it('queues only the student’s email when the court has no clerk address', async () => {
      const student = await completedStudent(t, {}, { email: null });
      const deliveries = await deliveriesOf(t.db, student.certificate.id);
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
          { studentId: student.id, source: 'admin', completionDate: today(t) },
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
      const before = await completedStudent(t);
      const superAdmin = await signedInStaff(t, 'super_admin');

      const unknown = await issueAsAdmin(superAdmin, 999_999);
      expect(unknown.statusCode).toBe(404);

      const rolledBack = await createCourseStudent(t);
      await expect(
        t.db.transaction(async (tx) => {
          const issued = await issueCertificate(
            tx,
            { clock: t.clock, config: t.config },
            { studentId: rolledBack.id, source: 'completion', completionDate: today(t) },
          );
          expect(issued.created).toBe(true);
          throw new Error('the grading transaction failed after the certificate was issued');
        }),
      ).rejects.toThrow('the grading transaction failed');
      expect(await certificatesOf(t.db, rolledBack.id)).toEqual([]);

      const after = await completedStudent(t);
      expect(sequenceOf(after.certificate.number)).toBe(sequenceOf(before.certificate.number) + 1);
    });
  });
});
