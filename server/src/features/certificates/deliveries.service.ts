import { recordAudit } from '../audit/audit.service.ts';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { RulesProfile } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { certificateDeliveries, certificates } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Mailer, MailDeliveryError } from '../../platform/mail/mailer.ts';
import { notFound } from '../../plugins/errors.ts';
import { canSeeStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { ensureCertificatePdf, findDeliveryOwner } from './certificates.service.ts';
import { getLinkKey, LINK_DAYS, signDownloadPath } from './download-links.ts';
import { type PeriodicJob, startPeriodicJob } from '../../platform/periodic-job.ts';
import { createLoadGauge, type LoadGauge } from '../../platform/event-loop-load.ts';

/** Decision 010: retry with backoff (1 min doubling to 1 h) for at least a day, then wait for an admin. */
export const RETRY_FOR_MS = 26 * 3600_000;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 3600_000;
/** A claimed delivery is someone's for this long; a crash mid-send frees it again after. */
const LEASE_MS = 5 * 60_000;
const BATCH = 10;

export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

function describeFailure(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

type CertificateRouting = RulesProfile['certificate']['routing'];

/** Why a replaced certificate's email is not sent (issue 18). */
export const REPLACED = 'Replaced by a corrected certificate before it was sent.';

/** What the student's email says about the court's copy: only what the school really does (issue 17). */
const WHERE_THE_COURT_COPY_GOES: Record<CertificateRouting, (court: string) => string> = {
  student_and_court: (court) => `A copy has been sent to the ${court}.`,
  student_only: (court) => `Please give a copy to the ${court} yourself, as your court asks.`,
  held_for_state_report: () =>
    `The school reports your completion to the state; you will see the filing date on your Certificates page.`,
};

function certificateEmail(
  config: Config,
  recipient: 'student' | 'court',
  certificate: { number: string; snapshot: unknown; routing: CertificateRouting },
  downloadPath: string,
): { subject: string; text: string } {
  const snapshot = certificate.snapshot as {
    studentName: string;
    courtName: string;
    completionDate: string;
    caseNumber?: string;
    replaces?: string;
  };
  // Issue 18: a correction's reissue says what it replaces, to both.
  const corrected = snapshot.replaces ? `Corrected certificate: replaces ${snapshot.replaces}.\n` : '';
  if (recipient === 'court') {
    return {
      subject: `${snapshot.replaces ? 'Corrected certificate' : 'Traffic school completion'}: ${snapshot.studentName} (${certificate.number})`,
      text:
        `Dear Clerk of the ${snapshot.courtName},\n\n` +
        corrected +
        `${snapshot.studentName} completed the court-assigned traffic school course at ${config.schoolName} on ${snapshot.completionDate}.\n` +
        (snapshot.caseNumber ? `Case or citation number: ${snapshot.caseNumber}\n` : '') +
        `The certificate of completion (${certificate.number}) is attached. Its authenticity can be checked at ${config.publicUrl}/verify/${certificate.number}.\n\n` +
        `${config.schoolName}\n${config.supportEmail}\n`,
    };
  }
  return {
    subject: `Your ${snapshot.replaces ? 'corrected ' : ''}certificate of completion (${certificate.number})`,
    text:
      `Hello ${snapshot.studentName},\n\n` +
      corrected +
      `Congratulations on completing your traffic school course. Your certificate of completion is attached. ${WHERE_THE_COURT_COPY_GOES[certificate.routing](snapshot.courtName)}\n` +
      `You can also download it for the next ${String(LINK_DAYS)} days at ${config.publicUrl}${downloadPath}\n` +
      `or any time from the Certificates page after signing in at ${config.publicUrl}/login.\n\n` +
      `Questions? Write to ${config.supportEmail}.\n\n${config.schoolName}\n`,
  };
}

/** A delivery still to send whose time had come by `moment`. */
function queuedAndDueBy(moment: Date) {
  return and(eq(certificateDeliveries.status, 'queued'), lte(certificateDeliveries.nextAttemptAt, moment));
}

/**
 * Sends what is due: claims up to a batch of queued deliveries whose time has come (a lease, so
 * two instances never send the same one at once), sends each with the PDF attached, and records
 * the outcome. Returns how many were sent.
 */
export async function processDueDeliveries(db: Db, clock: Clock, config: Config, mailer: Mailer): Promise<number> {
  return (await sendDueBatch(db, clock, config, mailer)).sent;
}

/**
 * The worker's round: batch after batch while full ones come back, so a busy afternoon's
 * certificates leave within seconds of their passes rather than ten per tick (issue 15). Bounded,
 * so that stopping the server waits for one round only.
 */
export async function processAllDueDeliveries(
  db: Db,
  clock: Clock,
  config: Config,
  mailer: Mailer,
  maxBatches = 50,
): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const round = await sendDueBatch(db, clock, config, mailer);
    sent += round.sent;
    if (round.claimed < BATCH) break;
  }
  return sent;
}

async function sendDueBatch(
  db: Db,
  clock: Clock,
  config: Config,
  mailer: Mailer,
): Promise<{ claimed: number; sent: number }> {
  const now = clock.now();
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: certificateDeliveries.id })
      .from(certificateDeliveries)
      .where(
        and(
          queuedAndDueBy(now),
          or(isNull(certificateDeliveries.lockedUntil), lte(certificateDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(asc(certificateDeliveries.nextAttemptAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(certificateDeliveries)
      .set({ lockedUntil: new Date(now.getTime() + LEASE_MS) })
      .where(
        inArray(
          certificateDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });

  let sent = 0;
  const linkKey = claimed.length > 0 ? await getLinkKey(db) : '';
  for (const delivery of claimed) {
    const [certificate] = await db
      .select({
        id: certificates.id,
        number: certificates.number,
        snapshot: certificates.snapshot,
        routing: certificates.routing,
        pdf: certificates.pdf,
        supersededAt: certificates.supersededAt,
      })
      .from(certificates)
      .where(eq(certificates.id, delivery.certificateId));
    if (!certificate) continue;
    // A certificate replaced by a correction is never sent (its replacement is).
    if (certificate.supersededAt) {
      await db
        .update(certificateDeliveries)
        .set({ status: 'cancelled', lockedUntil: null, lastError: REPLACED })
        .where(and(eq(certificateDeliveries.id, delivery.id), eq(certificateDeliveries.status, 'queued')));
      continue;
    }
    // Renew the lease before each send, and only if it is still this round's: a round slowed by
    // the mail server must not send what another instance has since claimed.
    const lease = new Date(clock.now().getTime() + LEASE_MS);
    const [stillMine] = await db
      .update(certificateDeliveries)
      .set({ lockedUntil: lease })
      .where(
        and(
          eq(certificateDeliveries.id, delivery.id),
          eq(certificateDeliveries.status, 'queued'),
          delivery.lockedUntil
            ? eq(certificateDeliveries.lockedUntil, delivery.lockedUntil)
            : isNull(certificateDeliveries.lockedUntil),
        ),
      )
      .returning({ id: certificateDeliveries.id });
    if (!stillMine) continue;
    const attempts = delivery.attempts + 1;
    // What this send did is written only while the row is still this lease's: a readdress or a
    // resend queued meanwhile (which clears the lease) stays queued, and goes to its new address.
    const stillThisSend = and(
      eq(certificateDeliveries.id, delivery.id),
      eq(certificateDeliveries.status, 'queued'),
      eq(certificateDeliveries.lockedUntil, lease),
    );
    try {
      // Rendered here, after the grading transaction, the first time (issue 15, decision 019).
      const pdf = await ensureCertificatePdf(db, config, certificate);
      const downloadPath = signDownloadPath(linkKey, certificate.number, clock.now());
      const { subject, text } = certificateEmail(config, delivery.recipient, certificate, downloadPath);
      await mailer.send({
        to: delivery.email,
        subject,
        text,
        messageId: `certificate-${String(delivery.certificateId)}-${delivery.recipient}`,
        attachments: [{ filename: 'Certificate_Of_Completion.pdf', content: pdf, contentType: 'application/pdf' }],
      });
      await db
        .update(certificateDeliveries)
        .set({ status: 'sent', attempts, sentAt: clock.now(), lockedUntil: null, lastError: null })
        .where(stillThisSend);
      sent += 1;
    } catch (error) {
      const permanent = error instanceof MailDeliveryError && error.permanent;
      const givingUp = permanent || clock.now().getTime() - delivery.queuedAt.getTime() >= RETRY_FOR_MS;
      await db
        .update(certificateDeliveries)
        .set({
          status: givingUp ? 'failed' : 'queued',
          attempts,
          lockedUntil: null,
          lastError: describeFailure(error),
          nextAttemptAt: new Date(clock.now().getTime() + retryDelay(attempts)),
        })
        // Only while still this send's: a delivery cancelled meanwhile (its certificate replaced by
        // a correction, issue 18) stays cancelled, and one readdressed meanwhile stays queued.
        .where(stillThisSend);
    }
  }
  return { claimed: claimed.length, sent };
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
    // Issue 18: a replaced certificate is never sent again; its correction is the one to send.
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
 * How long a due certificate email may wait for a busy instance (issue 15): well inside the two
 * minutes from the pass that the school promises itself.
 */
export const MAX_WAIT_FOR_BUSY_MS = 60_000;

/**
 * Whether a queued delivery has been due for longer than a busy instance may keep it waiting.
 */
async function hasLongDueDelivery(db: Db, clock: Clock): Promise<boolean> {
  const [due] = await db
    .select({ id: certificateDeliveries.id })
    .from(certificateDeliveries)
    .where(queuedAndDueBy(new Date(clock.now().getTime() - MAX_WAIT_FOR_BUSY_MS)))
    .limit(1);
  return due !== undefined;
}

/**
 * The worker's round (issue 15): rendering a certificate and sending its emails take this
 * instance's CPU from students' requests (about 9 ms a certificate, a quarter of a student's 44
 * calls), so while the instance has been busy since its last round the emails wait, up to
 * MAX_WAIT_FOR_BUSY_MS; then every due one goes. A quiet instance sends at once.
 */
export async function runDeliveryRound(
  db: Db,
  clock: Clock,
  config: Config,
  mailer: Mailer,
  load: LoadGauge,
): Promise<number> {
  try {
    if (load.busy() && !(await hasLongDueDelivery(db, clock))) return 0;
    return await processAllDueDeliveries(db, clock, config, mailer);
  } finally {
    // The next round measures the requests' load since this one's own work ended.
    load.mark();
  }
}

/**
 * Runs runDeliveryRound every few seconds until stopped. Every instance may run one: the lease
 * and SKIP LOCKED keep them from sending the same email twice.
 */
export function startDeliveryWorker(
  db: Db,
  clock: Clock,
  config: Config,
  mailer: Mailer,
  log: { error: (object: object, message: string) => void },
  intervalMs = 5_000,
): PeriodicJob {
  const load = createLoadGauge();
  return startPeriodicJob(
    () => runDeliveryRound(db, clock, config, mailer, load),
    intervalMs,
    (error) => {
      log.error({ error: describeFailure(error) }, 'certificate delivery round failed');
    },
  );
}

/**
 * Issue 19: a student's corrected email address takes over their certificate emails: every
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
