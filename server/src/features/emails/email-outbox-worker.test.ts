import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle as drizzlePglite, PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Database, type Db, openPostgres } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { emailOutbox } from '../../db/schema.ts';
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts';
import { TestClock } from '../../testing/build-test-app.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import {
  MAX_ATTEMPTS,
  outboxMessageId,
  outboxRetryDelay,
  sendDueEmails,
  startEmailOutboxWorker,
} from './email-outbox-worker.service.ts';
import { queueEmail } from './email-outbox.service.ts';

let sequence = 0;
/** An email to queue, with a key and an address of its own. */
function anEmail(overrides: Partial<Parameters<typeof queueEmail>[1]> = {}) {
  sequence += 1;
  return {
    key: `test-email-${String(sequence)}`,
    to: `student${String(sequence)}@example.com`,
    language: 'en' as const,
    subject: `Your receipt ${String(sequence)}`,
    text: `Thank you for your payment ${String(sequence)}.`,
    ...overrides,
  };
}

async function outboxRow(db: Db, key: string) {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, key));
  if (!row) throw new Error(`nothing queued under ${key}`);
  return row;
}

/** A second database handle of its own, as another instance on the same database has. */
function secondHandle(database: Database & { url?: string }): { db: Db; close(): Promise<void> } {
  if (database.url) {
    const second = openPostgres(database.url, { max: 2 });
    return { db: second.db, close: () => second.close() };
  }
  const first = database.db;
  if (first instanceof PgliteDatabase && '$client' in first && first.$client instanceof PGlite) {
    return { db: drizzlePglite({ client: first.$client, schema }), close: () => Promise.resolve() };
  }
  throw new Error('a second handle needs PostgreSQL or PGlite');
}

describe('the email outbox worker (decision 056)', () => {
  let database: Database & { url?: string };
  let db: Db;
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  const clock = new TestClock();

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
    smtp = await startSmtpTestServer({ rejectRecipients: (to) => to.startsWith('nobody') });
    mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'school@example.com',
      outboxDir: path.join(os.tmpdir(), 'ts-never-written'),
    });
  });
  afterAll(async () => {
    await mailer.close();
    await smtp.stop();
    await database.close();
  });
  beforeEach(async () => {
    // Each test starts with nothing due: what an earlier test left queued is sent first.
    await smtp.restart();
    clock.advance(2 * 3600_000);
    await sendDueEmails(db, clock, mailer);
  });

  const mailTo = (address: string) => smtp.messages.filter((message) => message.to.includes(address));

  it('sends a queued email once, as queued, under a Message-ID made from its key, and records it sent', async () => {
    const email = anEmail({ html: '<p>Thank you.</p>' });
    await queueEmail(db, email);

    expect(await sendDueEmails(db, clock, mailer)).toBe(1);
    expect(await sendDueEmails(db, clock, mailer)).toBe(0);

    const received = mailTo(email.to);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      subject: email.subject,
      text: email.text,
      html: '<p>Thank you.</p>',
      messageId: `<email-${email.key}@traffic-school.local>`,
    });
    expect(await outboxRow(db, email.key)).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentAt: clock.now(),
      lastError: null,
    });
  });

  it('keeps an email queued through a mail outage, with the error and a growing wait, and sends it once after', async () => {
    const email = anEmail();
    await queueEmail(db, email);
    await smtp.stop();

    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
    const failedAt = clock.now();
    expect(await outboxRow(db, email.key)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: expect.stringMatching(/not delivered/),
      nextAttemptAt: new Date(failedAt.getTime() + outboxRetryDelay(1)),
    });

    clock.advance(outboxRetryDelay(1));
    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
    expect(await outboxRow(db, email.key)).toMatchObject({
      status: 'queued',
      attempts: 2,
      nextAttemptAt: new Date(clock.now().getTime() + outboxRetryDelay(2)),
    });
    expect(outboxRetryDelay(2)).toBeGreaterThan(outboxRetryDelay(1));

    await smtp.restart();
    // Not before its wait is over, even with the mail server back.
    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
    clock.advance(outboxRetryDelay(2));
    expect(await sendDueEmails(db, clock, mailer)).toBe(1);
    expect(mailTo(email.to)).toHaveLength(1);
    expect(await outboxRow(db, email.key)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it('sends each email once when two workers on two database handles run at the same time', async () => {
    const emails = Array.from({ length: 23 }, () => anEmail());
    for (const email of emails) await queueEmail(db, email);
    const other = secondHandle(database);
    try {
      const [one, two] = await Promise.all([sendDueEmails(db, clock, mailer), sendDueEmails(other.db, clock, mailer)]);
      expect(one + two).toBe(emails.length);
    } finally {
      await other.close();
    }
    for (const email of emails) {
      expect(mailTo(email.to)).toHaveLength(1);
      expect((await outboxRow(db, email.key)).status).toBe('sent');
    }
  });

  it('gives up on an email as failed after its last allowed attempt, keeping the error', async () => {
    const email = anEmail();
    await queueEmail(db, email);
    await db
      .update(emailOutbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(emailOutbox.dedupeKey, email.key));
    await smtp.stop();

    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
    expect(await outboxRow(db, email.key)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: expect.stringMatching(/not delivered/),
    });
    await smtp.restart();
    clock.advance(2 * 3600_000);
    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
  });

  it('fails an email at once when the mail server refuses its address for good', async () => {
    const email = anEmail({ to: 'nobody@example.com' });
    await queueEmail(db, email);
    expect(await sendDueEmails(db, clock, mailer)).toBe(0);
    expect(await outboxRow(db, email.key)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/550/),
    });
  });

  it('makes a Message-ID from any key: the key when safe in a header, its hash otherwise', () => {
    expect(outboxMessageId('receipt-payment-12')).toBe('email-receipt-payment-12');
    expect(outboxMessageId('reminder student 7/14 days')).toMatch(/^email-[0-9a-f]{64}$/);
    expect(outboxMessageId('reminder student 7/14 days')).toBe(outboxMessageId('reminder student 7/14 days'));
  });

  it('sends an email as soon as it is queued when a worker runs in the process, without waiting for its tick', async () => {
    const errors: string[] = [];
    const log = { error: (_object: object, message: string) => errors.push(message) };
    const worker = startEmailOutboxWorker(db, clock, mailer, log, 3600_000);
    try {
      // The worker's first round runs at start: once it has sent what was due then, it is over.
      const before = anEmail();
      await queueEmail(db, before);
      await vi.waitFor(() => expect(mailTo(before.to)).toHaveLength(1), { timeout: 10_000, interval: 20 });
      const email = anEmail();
      await queueEmail(db, email);
      await vi.waitFor(
        () => {
          expect(mailTo(email.to)).toHaveLength(1);
        },
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await worker.stop();
    }
    expect(errors).toEqual([]);
  });
});
