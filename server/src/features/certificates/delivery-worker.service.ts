import { and, asc, eq, exists, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { RulesProfile } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { certificateDeliveries, certificates, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import {
  certificateToCourtEmail,
  certificateToStudentEmail,
} from '../../platform/email-templates/certificate-emails.tsx';
import { type Email, type EmailLanguage, schoolDetails } from '../../platform/email-templates/email.ts';
import { createLoadGauge, type LoadGauge } from '../../platform/event-loop-load.ts';
import { type Mailer, MailDeliveryError } from '../../platform/mail/mailer.ts';
import { type PeriodicJob, startPeriodicJob } from '../../platform/periodic-job.ts';
import { ensureCertificatePdf } from './certificate-pdf.service.ts';
import { readCertificateSnapshot } from './certificate-snapshot.ts';
import { REPLACED } from './deliveries.service.ts';
import { getLinkKey, LINK_DAYS, signDownloadPath } from './download-links.ts';

/**
 * The delivery worker (decision 010): every instance claims the due certificate emails in
 * batches, sends each with its PDF attached, and records what came of it, retrying with backoff
 * and leaving a delivery failed for an admin after RETRY_FOR_MS.
 */

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

type CertificateRouting = RulesProfile['certificate']['routing'];

function describeFailure(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * The email of one delivery: to the student in the language they read the school in, to the
 * court's clerk in English, the court's language of record (decision 057).
 */
function certificateEmail(
  config: Config,
  recipient: 'student' | 'court',
  certificate: {
    number: string;
    snapshot: unknown;
    routing: CertificateRouting;
    courtCopyQueued: boolean;
    language: EmailLanguage;
  },
  downloadPath: string,
): Promise<Email> {
  const snapshot = readCertificateSnapshot(certificate.snapshot);
  const data = {
    school: schoolDetails(config),
    certificateNumber: certificate.number,
    studentName: snapshot.studentName,
    courtName: snapshot.courtName,
    completionDate: snapshot.completionDate,
    caseNumber: snapshot.caseNumber,
    replaces: snapshot.replaces,
  };
  if (recipient === 'court') return certificateToCourtEmail(data, 'en');
  // The student is told the court has its copy only when the school really sends one (decision
  // 024): a court with no clerk's address on file gets none, so the student gives it themselves.
  const routing =
    certificate.routing === 'student_and_court' && !certificate.courtCopyQueued ? 'student_only' : certificate.routing;
  return certificateToStudentEmail({ ...data, routing, downloadPath, linkDays: LINK_DAYS }, certificate.language);
}

/** A delivery still to send whose time had come by `moment`. */
function queuedAndDueBy(moment: Date) {
  return and(eq(certificateDeliveries.status, 'queued'), lte(certificateDeliveries.nextAttemptAt, moment));
}

/**
 * The worker's round: claims the due deliveries in batches, sending each batch, while full ones
 * come back, so a busy afternoon's certificates leave within seconds of their passes rather than
 * a batch per tick (decision 019). Bounded, so that stopping the server waits for one round only.
 * Answers how many were sent.
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

/**
 * One batch of a round: claims up to BATCH due deliveries, then sends each in turn and records
 * what came of it.
 */
async function sendDueBatch(
  db: Db,
  clock: Clock,
  config: Config,
  mailer: Mailer,
): Promise<{ claimed: number; sent: number }> {
  const claimed = await claimDueDeliveries(db, clock.now());
  if (claimed.length === 0) return { claimed: 0, sent: 0 };
  const sending = { clock, config, mailer, linkKey: await getLinkKey(db) };
  let sent = 0;
  for (const delivery of claimed) {
    if (await sendClaimedDelivery(db, sending, delivery)) sent += 1;
  }
  return { claimed: claimed.length, sent };
}

type ClaimedDelivery = typeof certificateDeliveries.$inferSelect;

/**
 * Claims up to a batch of queued deliveries whose time has come and whose lease, if any, has run
 * out: each is this round's for LEASE_MS. SKIP LOCKED and the lease keep two instances from
 * claiming the same one.
 */
async function claimDueDeliveries(db: Db, now: Date): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
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
}

interface Sending {
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** The download links' key (download-links.ts), read once per batch. */
  linkKey: string;
}

/**
 * Sends one claimed delivery and records the outcome; answers whether it was sent. A replaced
 * certificate's email is cancelled instead (decision 041), and a delivery whose lease another
 * round has taken since is left to that round.
 */
async function sendClaimedDelivery(db: Db, sending: Sending, delivery: ClaimedDelivery): Promise<boolean> {
  const certificate = await findCertificateToSend(db, delivery.certificateId);
  if (!certificate) return false;
  if (certificate.supersededAt) {
    await cancelReplacedDelivery(db, delivery.id);
    return false;
  }
  const lease = await renewLease(db, sending.clock, delivery);
  if (!lease) return false;
  try {
    await mailCertificate(db, sending, delivery, certificate);
  } catch (error) {
    await recordFailedSend(db, sending.clock, { delivery, lease, error });
    return false;
  }
  await recordSent(db, sending.clock, { delivery, lease });
  return true;
}

/** The certificate a delivery sends, with its stored PDF if there is one. */
async function findCertificateToSend(db: Db, certificateId: number) {
  const [certificate] = await db
    .select({
      id: certificates.id,
      number: certificates.number,
      snapshot: certificates.snapshot,
      routing: certificates.routing,
      courtCopyQueued: sql<boolean>`${exists(
        db
          .select({ id: certificateDeliveries.id })
          .from(certificateDeliveries)
          .where(
            and(eq(certificateDeliveries.certificateId, certificates.id), eq(certificateDeliveries.recipient, 'court')),
          ),
      )}`,
      pdf: certificates.pdf,
      supersededAt: certificates.supersededAt,
      language: students.language,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(eq(certificates.id, certificateId));
  return certificate;
}

type CertificateToSend = NonNullable<Awaited<ReturnType<typeof findCertificateToSend>>>;

/** A certificate replaced by a correction is never sent: its replacement is. */
async function cancelReplacedDelivery(db: Db, deliveryId: number): Promise<void> {
  await db
    .update(certificateDeliveries)
    .set({ status: 'cancelled', lockedUntil: null, lastError: REPLACED })
    .where(and(eq(certificateDeliveries.id, deliveryId), eq(certificateDeliveries.status, 'queued')));
}

/**
 * Renews the lease before a send, and only if it is still this round's: a round slowed by the mail
 * server must not send what another instance has since claimed. Answers the new lease, or
 * undefined when the delivery is no longer this round's.
 */
async function renewLease(db: Db, clock: Clock, delivery: ClaimedDelivery): Promise<Date | undefined> {
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
  return stillMine ? lease : undefined;
}

/** Emails the certificate to the delivery's address with its PDF attached, under a Message-ID stable per certificate and recipient. */
async function mailCertificate(
  db: Db,
  { clock, config, mailer, linkKey }: Sending,
  delivery: ClaimedDelivery,
  certificate: CertificateToSend,
): Promise<void> {
  // Rendered here, after the grading transaction, the first time (decision 019).
  const pdf = await ensureCertificatePdf(db, config, certificate);
  const downloadPath = signDownloadPath(linkKey, certificate.number, clock.now());
  const { subject, text, html } = await certificateEmail(config, delivery.recipient, certificate, downloadPath);
  await mailer.send({
    to: delivery.email,
    subject,
    text,
    html,
    messageId: `certificate-${String(delivery.certificateId)}-${delivery.recipient}`,
    attachments: [{ filename: 'Certificate_Of_Completion.pdf', content: pdf, contentType: 'application/pdf' }],
  });
}

/**
 * What a send did is written only while the row is still this lease's: a readdress or a resend
 * queued meanwhile (which clears the lease) stays queued, and goes to its new address; a delivery
 * cancelled meanwhile (its certificate replaced by a correction) stays cancelled.
 */
function stillThisSend(deliveryId: number, lease: Date) {
  return and(
    eq(certificateDeliveries.id, deliveryId),
    eq(certificateDeliveries.status, 'queued'),
    eq(certificateDeliveries.lockedUntil, lease),
  );
}

async function recordSent(db: Db, clock: Clock, send: { delivery: ClaimedDelivery; lease: Date }): Promise<void> {
  await db
    .update(certificateDeliveries)
    .set({
      status: 'sent',
      attempts: send.delivery.attempts + 1,
      sentAt: clock.now(),
      lockedUntil: null,
      lastError: null,
    })
    .where(stillThisSend(send.delivery.id, send.lease));
}

/**
 * A failed send is tried again after retryDelay, until RETRY_FOR_MS have passed since it was
 * queued or the mail server refuses it for good; then it is failed, for an admin to resend
 * (decision 010).
 */
async function recordFailedSend(
  db: Db,
  clock: Clock,
  send: { delivery: ClaimedDelivery; lease: Date; error: unknown },
): Promise<void> {
  const { delivery, error } = send;
  const attempts = delivery.attempts + 1;
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
    .where(stillThisSend(delivery.id, send.lease));
}

/**
 * How long a due certificate email may wait for a busy instance (decision 031): well inside the
 * two minutes from the pass that the school promises itself.
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
 * The worker's round (decision 031): rendering a certificate and sending its emails take this
 * instance's CPU from students' requests, so while the instance has been busy since its last
 * round the emails wait, up to MAX_WAIT_FOR_BUSY_MS; then every due one goes. A quiet instance
 * sends at once.
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
