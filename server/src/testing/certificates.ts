import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { certificateDeliveries, certificates, courts, students } from '../db/schema.ts';
import { completeCourseWithCertificate } from '../features/progress/progress.service.ts';
import type { TestApp } from './build-test-app.ts';
import { type ApiClient, apiClient, passChapter } from './course.ts';
import { type CreatedCourt, type CreatedStudent, createCourt, createStudent, markStudentPaid } from './factories.ts';
import { signInStudent } from './sign-in.ts';

export interface CourseStudent extends CreatedStudent {
  /** A court of the student's own, so its clerk's address receives only this student's certificates. */
  court: CreatedCourt & { email: string | null };
  cookie: string;
  client: ApiClient;
}

/** A paid, signed-in student in a court of their own (with its own clerk address unless told otherwise). */
export async function createCourseStudent(
  t: TestApp,
  overrides: Partial<typeof students.$inferInsert> = {},
  courtOverrides: Partial<typeof courts.$inferInsert> = {},
): Promise<CourseStudent> {
  const court = await createCourt(t.db, courtOverrides);
  const [courtRow] = await t.db.select({ email: courts.email }).from(courts).where(eq(courts.id, court.id));
  const student = await createStudent(t.db, { courtId: court.id, ...overrides });
  await markStudentPaid(t.db, student.id, t.clock.now());
  const cookie = await signInStudent(t.app, student);
  return { ...student, court: { ...court, email: courtRow?.email ?? null }, cookie, client: apiClient(t.app, cookie) };
}

/** Takes the whole course through the API as the student would: chapters 1-4, then a passing final. */
export async function passCourse(client: ApiClient, db: Db, studentId: number): Promise<void> {
  for (const chapter of [1, 2, 3, 4, 6]) await passChapter(client, db, studentId, chapter);
}

/**
 * What a final pass does in its grading transaction once its chapter is recorded (progress
 * completeCourseWithCertificate: completed_at, the completion certificate, its emails queued),
 * without taking the course through the API. The certificates tests take the course through the
 * API where the pass itself is the subject.
 */
export async function recordCourseCompletion(
  t: Pick<TestApp, 'db' | 'clock' | 'config'>,
  studentId: number,
): Promise<void> {
  await t.db.transaction(async (tx) => {
    await completeCourseWithCertificate(tx, { clock: t.clock, config: t.config }, studentId);
  });
}

/** A student who has passed the final (recorded as the grading transaction records it), with their certificate. */
export async function completedStudent(
  t: TestApp,
  overrides: Partial<typeof students.$inferInsert> = {},
  courtOverrides: Partial<typeof courts.$inferInsert> = {},
): Promise<CourseStudent & { certificate: Awaited<ReturnType<typeof onlyCertificateOf>> }> {
  const student = await createCourseStudent(t, overrides, courtOverrides);
  await recordCourseCompletion(t, student.id);
  return { ...student, certificate: await onlyCertificateOf(t.db, student.id) };
}

/** A student's certificates as stored, oldest first. */
export function certificatesOf(db: Db, studentId: number) {
  return db.select().from(certificates).where(eq(certificates.studentId, studentId)).orderBy(asc(certificates.id));
}

/** The only certificate of a student; fails the test if there is not exactly one. */
export async function onlyCertificateOf(db: Db, studentId: number) {
  const rows = await certificatesOf(db, studentId);
  if (rows.length !== 1) throw new Error(`student ${String(studentId)} has ${String(rows.length)} certificates`);
  return rows[0]!;
}

/** A certificate's deliveries as stored, the student's first. */
export function deliveriesOf(db: Db, certificateId: number) {
  return db
    .select()
    .from(certificateDeliveries)
    .where(eq(certificateDeliveries.certificateId, certificateId))
    .orderBy(asc(certificateDeliveries.id));
}

/** The running number of a certificate number: 'TS-2026-000123' -> 123. */
export function sequenceOf(number: string): number {
  const match = /^TS-\d{4}-(\d{6,})$/.exec(number);
  if (!match) throw new Error(`not a certificate number: ${number}`);
  return Number(match[1]);
}
