import { and, desc, eq, gte, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificates } from '../../db/schema.ts';
import { lockStudentRow } from '../../db/student-lock.ts';
import type { Clock } from '../../platform/clock.ts';
import { repeatWindowStart } from '../../plugins/repeats.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type IssueContext, issueCertificate } from './issuing.service.ts';

/**
 * A super_admin's new certificate for a completed course (spec 7's noEmail=1, decision 010): the
 * completion date they typed, its own number, no email, and an audit row; older certificates stay.
 * The same request again moments later is answered with the certificate it issued (decision 040).
 */
export async function issueStaffCertificate(
  tx: Db,
  context: IssueContext,
  input: { studentId: number; staffId: number; completionDate: string },
): Promise<{ id: number; created: boolean }> {
  const repeated = await findRepeatedStaffCertificate(tx, context.clock, input);
  if (repeated) return { ...repeated, created: false };
  const issued = await issueCertificate(tx, context, { ...input, source: 'admin' });
  await recordAudit(tx, context.clock, {
    staffId: input.staffId,
    action: 'issue_certificate',
    entityType: 'certificate',
    entityId: issued.id,
    before: null,
    after: { number: issued.number, student_id: input.studentId, completion_date: input.completionDate },
  });
  return issued;
}

/**
 * The certificate this super_admin issued this student with this completion date moments ago
 * (decision 040): a second click, or the same request sent again, is answered with it, since each
 * number issued is kept for good. Locks the student's row first, so that of two sent at once the
 * second waits and finds the first's.
 */
async function findRepeatedStaffCertificate(
  tx: Db,
  clock: Clock,
  input: { studentId: number; staffId: number; completionDate: string },
): Promise<{ id: number } | undefined> {
  await lockStudentRow(tx, input.studentId);
  const [repeated] = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(
      and(
        eq(certificates.studentId, input.studentId),
        eq(certificates.source, 'admin'),
        eq(certificates.issuedByStaffId, input.staffId),
        eq(certificates.completionDate, input.completionDate),
        isNull(certificates.supersededAt),
        gte(certificates.issuedAt, repeatWindowStart(clock.now())),
      ),
    )
    .orderBy(desc(certificates.id))
    .limit(1);
  return repeated;
}
