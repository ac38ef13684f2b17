import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { certificateDeliveries, certificates, payments, quizAttempts, students } from '../db/schema.ts';
import type { TestApp } from './build-test-app.ts';
import { recordCourseCompletion } from './certificates.ts';
import { type CreatedStudent, createStudent } from './factories.ts';

export const DAY = 24 * 60 * 60 * 1000;
export const HOUR = 60 * 60 * 1000;

/** The moment `days` (fractions allowed) before the test clock's present. */
export const daysAgo = (t: TestApp, days: number): Date => new Date(t.clock.now().getTime() - days * DAY);

/** Runs `action` with the test clock at `moment`, then puts the clock back. */
export async function atMoment<T>(t: TestApp, moment: Date, action: () => Promise<T>): Promise<T> {
  const present = t.clock.now();
  t.clock.set(moment);
  try {
    return await action();
  } finally {
    t.clock.set(present);
  }
}

/** A student who registered at a given moment (unpaid until a payment is recorded). */
export function registerStudentAt(
  t: TestApp,
  courtId: number,
  registeredAt: Date,
  overrides: Partial<typeof students.$inferInsert> = {},
): Promise<CreatedStudent> {
  return createStudent(t.db, { courtId, createdAt: registeredAt, ...overrides });
}

/**
 * A payment received at a moment, as fulfilment (card) or an admin's mark-paid (manual, without
 * an amount) records it: a payments row, and the enrolment's payment_at if it was unpaid.
 */
export async function recordPaymentAt(
  db: Db,
  studentId: number,
  paidAt: Date,
  payment: { method: 'card'; amountCents: number } | { method: 'manual' },
): Promise<void> {
  await db.insert(payments).values({
    studentId,
    method: payment.method,
    ...(payment.method === 'card'
      ? { provider: 'test' as const, amountCents: payment.amountCents, currency: 'usd' }
      : {}),
    createdAt: paidAt,
  });
  await db
    .update(students)
    .set({ paymentAt: paidAt })
    .where(and(eq(students.id, studentId), isNull(students.paymentAt)));
}

/** The course completed at a moment, as a final pass records it: completed_at, certificate, deliveries. */
export function completeCourseAt(t: TestApp, studentId: number, completedAt: Date): Promise<void> {
  return atMoment(t, completedAt, () => recordCourseCompletion(t, studentId));
}

/** A quiz or final exam attempt drawn at `startedAt`; submitted (with its outcome) or left open. */
export async function recordAttempt(
  db: Db,
  input: { studentId: number; chapterId: number; startedAt: Date; submittedAt?: Date; passed?: boolean },
): Promise<void> {
  const submitted = input.submittedAt !== undefined;
  await db.insert(quizAttempts).values({
    studentId: input.studentId,
    chapterId: input.chapterId,
    questionIds: [],
    createdAt: input.startedAt,
    submittedAt: input.submittedAt ?? null,
    score: submitted ? (input.passed ? 100 : 40) : null,
    passed: submitted ? (input.passed ?? false) : null,
  });
}

/** A certificate email that gave up after its retries, waiting for an admin (decision 010). */
export async function failDelivery(db: Db, studentId: number, recipient: 'student' | 'court'): Promise<void> {
  const [certificate] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(eq(certificates.studentId, studentId));
  if (!certificate) throw new Error(`student ${String(studentId)} has no certificate`);
  const failed = await db
    .update(certificateDeliveries)
    .set({ status: 'failed', attempts: 8, lastError: '550 mailbox unavailable' })
    .where(and(eq(certificateDeliveries.certificateId, certificate.id), eq(certificateDeliveries.recipient, recipient)))
    .returning({ id: certificateDeliveries.id });
  if (failed.length !== 1) throw new Error(`no ${recipient} delivery for student ${String(studentId)}`);
}

/** An enrolment replaced by a retake or a new registration (it stays, archived). */
export async function archiveStudent(db: Db, studentId: number, archivedAt: Date): Promise<void> {
  await db.update(students).set({ archivedAt, archiveReason: 'retake' }).where(eq(students.id, studentId));
}
