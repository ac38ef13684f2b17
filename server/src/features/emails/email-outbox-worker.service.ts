import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Mailer, MailDeliveryError } from '../../platform/mail/mailer.ts';
import { type PeriodicJob, startPeriodicJob } from '../../platform/periodic-job.ts';

/**
 * The outbox worker (decision 056): every instance claims the due queued emails of email_outbox
 * in batches, sends each through the Mailer, and records what came of it. A failed send stays
 * queued with a growing back-off and its error, and is failed for good after MAX_ATTEMPTS tries
 * or at once when the mail server refuses it for good.
 */

/** Decision 056: about a day of tries (as decision 010 gives a certificate), then 'failed'. */
export const MAX_ATTEMPTS = 30;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 3600_000;
/**
 * A claimed email is this round's for this long: its next_attempt_at is moved this far ahead, so
 * no other round finds it due; a crash mid-send frees it again after.
 */
const LEASE_MS = 5 * 60_000;
const BATCH = 10;

/** The wait before the next try after `attempts` failed ones: one minute doubling, at most an hour. */
export function outboxRetryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

// The Mailer's Message-ID takes letters, digits, '.', '_' and '-', up to 200 characters.
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,180}$/;

/**
 * The Message-ID of an outbox email, stable per dedupe key so a retried send is recognisable as
 * the same message: the key itself when it is safe in a header, otherwise its hash.
 */
export function outboxMessageId(key: string): string {
  return SAFE_KEY.test(key) ? `email-${key}` : `email-${createHash('sha256').update(key).digest('hex')}`;
}

function describeFailure(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

type ClaimedEmail = typeof emailOutbox.$inferSelect;

/**
 * Claims up to a batch of queued emails whose time has come, moving each one's next_attempt_at a
 * lease ahead. SKIP LOCKED keeps a round at the same moment from waiting for or taking these rows,
 * and the moved time keeps later rounds off them while this one sends.
 */
async function claimDueEmails(db: Db, now: Date): Promise<{ email: ClaimedEmail; lease: Date }[]> {
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'queued'), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(emailOutbox)
      .set({ nextAttemptAt: lease })
      .where(
        inArray(
          emailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
  return claimed.map((email) => ({ email, lease }));
}

/** What a send did is written only while the row is still this claim's. */
function stillThisClaim(id: number, lease: Date) {
  return and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'queued'), eq(emailOutbox.nextAttemptAt, lease));
}

async function sendClaimedEmail(
  db: Db,
  clock: Clock,
  mailer: Mailer,
  claim: { email: ClaimedEmail; lease: Date },
): Promise<boolean> {
  const { email, lease } = claim;
  try {
    await mailer.send({
      to: email.recipient,
      subject: email.subject,
      text: email.textBody,
      ...(email.htmlBody === null ? {} : { html: email.htmlBody }),
      messageId: outboxMessageId(email.dedupeKey),
    });
  } catch (error) {
    await recordFailedSend(db, clock, { ...claim, error });
    return false;
  }
  await db
    .update(emailOutbox)
    .set({ status: 'sent', attempts: email.attempts + 1, sentAt: clock.now(), lastError: null })
    .where(stillThisClaim(email.id, lease));
  return true;
}

/**
 * A failed send is tried again after outboxRetryDelay, until MAX_ATTEMPTS tries have failed or
 * the mail server refuses the message for good (an address that cannot receive mail); then it
 * is 'failed', with the last error kept.
 */
async function recordFailedSend(
  db: Db,
  clock: Clock,
  send: { email: ClaimedEmail; lease: Date; error: unknown },
): Promise<void> {
  const { email, error } = send;
  const attempts = email.attempts + 1;
  const permanent = error instanceof MailDeliveryError && error.permanent;
  const givingUp = permanent || attempts >= MAX_ATTEMPTS;
  await db
    .update(emailOutbox)
    .set({
      status: givingUp ? 'failed' : 'queued',
      attempts,
      lastError: describeFailure(error),
      nextAttemptAt: new Date(clock.now().getTime() + outboxRetryDelay(attempts)),
    })
    .where(stillThisClaim(email.id, send.lease));
}

/**
 * One round of the worker: claims and sends batch after batch while full ones come back, bounded
 * so that stopping the server waits for one round only. Answers how many were sent.
 */
export async function sendDueEmails(db: Db, clock: Clock, mailer: Mailer, maxBatches = 50): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const claimed = await claimDueEmails(db, clock.now());
    for (const claim of claimed) {
      if (await sendClaimedEmail(db, clock, mailer, claim)) sent += 1;
    }
    if (claimed.length < BATCH) break;
  }
  return sent;
}

/** The running workers of this process, woken by wakeEmailOutbox. */
const wakers = new Set<() => void>();

/**
 * Asks this process's outbox worker for a round now rather than at its next tick, so an email
 * queued by a request leaves at once. Only a hint: an email queued inside a transaction that has
 * not committed yet is not due to the woken round, and the next tick sends it.
 */
export function wakeEmailOutbox(): void {
  for (const wake of wakers) wake();
}

export interface EmailOutboxWorker extends PeriodicJob {
  /** Runs a round now, or one more right after the round in progress. */
  wake(): void;
}

/**
 * Runs sendDueEmails every few seconds and whenever woken, one round at a time, until stopped.
 * Every instance may run one: the claim's SKIP LOCKED and lease keep them from sending an email twice.
 */
export function startEmailOutboxWorker(
  db: Db,
  clock: Clock,
  mailer: Mailer,
  log: { error: (object: object, message: string) => void },
  intervalMs = 5_000,
): EmailOutboxWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const onError = (error: unknown) => {
    log.error({ error: describeFailure(error) }, 'email outbox round failed');
  };
  // The periodic job and a wake share one round at a time; a wake during a round asks for another.
  const round = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await sendDueEmails(db, clock, mailer);
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const wake = () => {
    if (!stopped) round().catch(onError);
  };
  const job = startPeriodicJob(round, intervalMs, onError);
  wakers.add(wake);
  return {
    wake,
    async stop() {
      stopped = true;
      wakers.delete(wake);
      await job.stop();
      await running?.catch(() => undefined);
    },
  };
}
