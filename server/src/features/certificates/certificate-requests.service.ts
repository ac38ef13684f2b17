import type { Certificate } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { lockStudentRow } from '../../db/student-lock.ts';
import { localDate } from '../../platform/clock.ts';
import { schoolEvents } from '../../platform/metrics.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import { getVisibleStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { parseCompletionDate } from './certificate-dates.ts';
import { listCertificatesOf } from './certificate-lists.service.ts';
import { queueCertificateDeliveries } from './deliveries.service.ts';
import { courseNotComplete, type IssueContext, issueCertificate } from './issuing.service.ts';
import { issueStaffCertificate } from './staff-issued.service.ts';

/**
 * Spec 7 POST /api/pdf/certificate: the student's call after a final pass, or (noEmail) a
 * super_admin's new certificate with a completion date they type. Either way only for a student
 * the caller may see (404 otherwise) whose course is complete.
 */
export async function issueCertificateFor(
  db: Db,
  { auth, ...context }: IssueContext & { auth: Auth },
  input: { studentId: number; noEmail: boolean; completionDate?: string | undefined },
): Promise<Certificate> {
  const student = await getVisibleStudent(db, auth, input.studentId);
  // noEmail=1 is a super_admin's new certificate with a typed date; otherwise the student's own.
  const byStaff = input.noEmail;
  if (byStaff && (auth.kind !== 'staff' || auth.role !== 'super_admin')) {
    throw forbidden('Only a super admin issues a new certificate.');
  }
  if (!byStaff && auth.kind !== 'student') {
    throw forbidden('Staff issue certificates with a completion date (noEmail=1).');
  }
  // Either way, only for a finished course: never one for a student who did not finish (decision 016).
  if (!student.completedAt) throw courseNotComplete();
  const completionDate = byStaff
    ? parseCompletionDate(input.completionDate ?? '', context.clock.now())
    : localDate(student.completedAt, context.config.schoolTimeZone);
  if (!completionDate)
    throw new AppError('COMPLETION_DATE_INVALID', 'Please enter a past completion date written like January 1, 2023.');
  const issued = await db.transaction(async (tx) =>
    auth.kind === 'student'
      ? issueCompletionCertificate(tx, context, { studentId: student.id, completionDate })
      : issueStaffCertificate(tx, context, { studentId: student.id, staffId: auth.staffId, completionDate }),
  );
  // Counted once the transaction has committed (decision 060).
  if (issued.created) schoolEvents.certificatesIssued.inc();
  const all = await listCertificatesOf(db, student.id);
  const certificate = all.find((candidate) => candidate.id === issued.id);
  if (!certificate) throw notFound('No such certificate.');
  // A correction replaced the completion certificate (decision 041): the student's certificate is
  // now the newest one not superseded, the reissue.
  if (byStaff || certificate.superseded_at === null) return certificate;
  return all.find((candidate) => candidate.superseded_at === null) ?? certificate;
}

/**
 * The student's own completion certificate: the one the final pass issued, or, should the
 * enrolment have none, issued now with its emails queued. Under the student's row lock, so that
 * requests at once issue it once.
 */
async function issueCompletionCertificate(
  tx: Db,
  context: IssueContext,
  input: { studentId: number; completionDate: string },
): Promise<{ id: number; created: boolean }> {
  await lockStudentRow(tx, input.studentId);
  const certificate = await issueCertificate(tx, context, { ...input, source: 'completion' });
  if (certificate.created) await queueCertificateDeliveries(tx, context.clock, certificate);
  return certificate;
}
