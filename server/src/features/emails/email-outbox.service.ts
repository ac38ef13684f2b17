import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import { wakeEmailOutbox } from './email-outbox-worker.service.ts';

/**
 * The outbox of the emails that are not certificates (decision 056): receipts, reminders and
 * notices are queued here, each once under its key, and the outbox worker sends them.
 */

export interface QueuedEmail {
  /**
   * What makes this email one of a kind, e.g. `receipt-payment-12` or `reminder-student-7-14d`:
   * an email with a key already queued (by this instance, another, or before a restart) is not
   * queued again. It also becomes the Message-ID, so keep it to letters, digits, `.`, `_` and `-`.
   */
  key: string;
  to: string;
  language: 'en' | 'es';
  studentId?: number | null;
  subject: string;
  text: string;
  html?: string;
}

/**
 * A new email's first try: due at once by any clock's reading. Not the database's now(), because
 * the worker compares with the app's Clock, which in tests is not the database's.
 */
const DUE_AT_ONCE = new Date(0);

/** Queues one email once: false when its key was already queued (nothing changes then). */
export async function queueEmail(
  db: Db, // a transaction handle works too, so a caller queues in its own transaction
  message: QueuedEmail,
): Promise<boolean> {
  const inserted = await db
    .insert(emailOutbox)
    .values({
      dedupeKey: message.key,
      recipient: message.to,
      language: message.language,
      studentId: message.studentId ?? null,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      nextAttemptAt: DUE_AT_ONCE,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id });
  if (inserted.length === 0) return false;
  wakeEmailOutbox();
  return true;
}
