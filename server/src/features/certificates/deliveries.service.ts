import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificateDeliveries, certificates, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { notFound } from '../../plugins/errors.ts';
import { canSeeStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { courtCopyAddress } from './court-copy.ts';
import type { IssuedCertificate } from './issuing.service.ts';

/**
 * A certificate's deliveries, one row per recipient (decision 010): the queue the delivery worker
 * (delivery-worker.service.ts) sends from. Queued at issue, sent again by an admin, readdressed
 * when a student's email changes.
 */

/** Why a replaced certificate's email is not sent (decision 041). */
export const REPLACED = 'Replaced by a corrected certificate before it was sent.';

/**
 * Queues a new certificate's emails for the delivery worker (decision 010): one to the student,
 * and one to the court's clerk when the court gets its copy at issue (courtCopyAddress). Each
 * recipient's email is queued once (the unique index of certificate and recipient).
 */
export async function queueCertificateDeliveries(
  tx: Db,
  clock: Clock,
  certificate: Pick<IssuedCertificate, 'id' | 'addresses' | 'rules'>,
): Promise<void> {
  const now = clock.now();
  const court = courtCopyAddress(certificate.rules, 'issued', certificate.addresses.court);
  const recipients = [
    { recipient: 'student' as const, email: certificate.addresses.student },
    ...(court === null ? [] : [{ recipient: 'court' as const, email: court }]),
  ];
  await tx
    .insert(certificateDeliveries)
    .values(
      recipients.map((to) => ({
        certificateId: certificate.id,
        ...to,
        status: 'queued' as const,
        nextAttemptAt: now,
        queuedAt: now,
      })),
    )
    .onConflictDoNothing();
}

/**
 * Decision 010: an admin sends a certificate email again, for a student within their scope; any
 * other delivery, real or not, is 404.
 */
export async function resendDeliveryFor(
  db: Db,
  context: { clock: Clock; auth: Extract<Auth, { kind: 'staff' }> },
  input: { deliveryId: number },
): Promise<void> {
  const owner = await findDeliveryOwner(db, input.deliveryId);
  if (!owner || !canSeeStudent(context.auth, owner)) throw notFound('No such delivery.');
  await resendDelivery(db, { clock: context.clock, staffId: context.auth.staffId }, input);
}

/** The student a delivery belongs to, for the scope check before an admin resends it. */
async function findDeliveryOwner(db: Db, deliveryId: number) {
  const [row] = await db
    .select({ id: students.id, courtId: students.courtId })
    .from(certificateDeliveries)
    .innerJoin(certificates, eq(certificates.id, certificateDeliveries.certificateId))
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(eq(certificateDeliveries.id, deliveryId));
  return row ?? null;
}

/** An admin sends a delivery again (from the dead-letter state, or to repeat a sent one). */
export async function resendDelivery(
  db: Db,
  { clock, staffId }: { clock: Clock; staffId: number },
  { deliveryId }: { deliveryId: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        status: certificateDeliveries.status,
        attempts: certificateDeliveries.attempts,
        supersededAt: certificates.supersededAt,
      })
      .from(certificateDeliveries)
      .innerJoin(certificates, eq(certificates.id, certificateDeliveries.certificateId))
      .where(eq(certificateDeliveries.id, deliveryId))
      .for('update', { of: certificateDeliveries });
    if (!row) throw notFound('No such delivery.');
    // A replaced certificate is never sent again; its correction is the one to send (decision 041).
    if (row.supersededAt) throw notFound('This certificate was replaced by a corrected one; send that one instead.');
    const before = { status: row.status, attempts: row.attempts };
    await tx
      .update(certificateDeliveries)
      .set({ status: 'queued', nextAttemptAt: clock.now(), lockedUntil: null, queuedAt: clock.now() })
      .where(eq(certificateDeliveries.id, deliveryId));
    await recordAudit(tx, clock, {
      staffId,
      action: 'resend_delivery',
      entityType: 'delivery',
      entityId: deliveryId,
      before,
      after: { status: 'queued', attempts: before.attempts },
    });
  });
}

/**
 * A student's corrected email address takes over their certificate emails (decision 041): every
 * delivery to the student of a current certificate is addressed to it, and with `resend` queued
 * again at once (otherwise only those not yet sent are re-queued to the new address).
 */
export async function readdressStudentDeliveries(
  tx: Db,
  clock: Clock,
  input: { studentId: number; email: string; resend: boolean },
): Promise<void> {
  const current = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.studentId, input.studentId), isNull(certificates.supersededAt)));
  if (current.length === 0) return;
  const ids = current.map((row) => row.id);
  const now = clock.now();
  await tx
    .update(certificateDeliveries)
    .set({ email: input.email })
    .where(and(inArray(certificateDeliveries.certificateId, ids), eq(certificateDeliveries.recipient, 'student')));
  await tx
    .update(certificateDeliveries)
    .set({ status: 'queued', nextAttemptAt: now, queuedAt: now, lockedUntil: null, lastError: null })
    .where(
      and(
        inArray(certificateDeliveries.certificateId, ids),
        eq(certificateDeliveries.recipient, 'student'),
        input.resend
          ? undefined
          : or(eq(certificateDeliveries.status, 'failed'), eq(certificateDeliveries.status, 'queued')),
      ),
    );
}
