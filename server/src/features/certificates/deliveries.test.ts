import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { certificates } from '../../db/schema.ts';
import type { LoadGauge } from '../../platform/event-loop-load.ts';
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { deliveriesOf, completedStudent } from '../../testing/certificates.ts';
import { createStaff } from '../../testing/factories.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { resendDelivery } from './deliveries.service.ts';
import {
  MAX_WAIT_FOR_BUSY_MS,
  processAllDueDeliveries,
  RETRY_FOR_MS,
  retryDelay,
  runDeliveryRound,
} from './delivery-worker.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A certificate row as stored now (its PDF is stored by the first download or delivery). */
async function storedCertificate(db: Db, id: number) {
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  if (!row) throw new Error(`no certificate ${String(id)}`);
  return row;
}

/** The worker's measure of the instance's load, held at one answer (the real one measures this process). */
function gaugeSaying(busy: boolean): LoadGauge & { marks: number } {
  return {
    marks: 0,
    busy: () => busy,
    mark() {
      this.marks += 1;
    },
  };
}

describe("the delivery worker's round on a busy instance (decision 019)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const statusesOf = async (certificate: { id: number }) =>
    (await deliveriesOf(t.db, certificate.id)).map((delivery) => delivery.status);

  it('keeps certificate emails waiting while the instance is busy, up to a minute, then sends every due one', async () => {
    const first = (await completedStudent(t)).certificate;
    const busy = gaugeSaying(true);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(0);
    t.clock.advance(MAX_WAIT_FOR_BUSY_MS - 1000);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(0);
    expect(await statusesOf(first)).toEqual(['queued', 'queued']);
    const second = (await completedStudent(t)).certificate;
    t.clock.advance(2000);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(4);
    expect(await statusesOf(first)).toEqual(['sent', 'sent']);
    expect(await statusesOf(second)).toEqual(['sent', 'sent']);
    // Each round marks when its own work ends, so the next one measures the requests' load only.
    expect(busy.marks).toBe(3);
  });

  it('sends at once on a quiet instance', async () => {
    const certificate = (await completedStudent(t)).certificate;
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, gaugeSaying(false))).toBe(2);
    expect(await statusesOf(certificate)).toEqual(['sent', 'sent']);
  });
});

describe('certificate delivery by email', () => {
  const FROM = 'Traffic School <certificates@traffic-school.example>';
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ rejectRecipients: (to) => to.startsWith('refusing.clerk') });
    mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: path.join(os.tmpdir(), 'ts-never-written') });
    t = await buildTestApp({ mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailer.close();
    await smtp.stop();
  });

  // A worker's round, as runDeliveryRound runs it on a quiet instance.
  const deliver = () => processAllDueDeliveries(t.db, t.clock, t.config, mailer);
  const mailTo = (address: string | null) => smtp.messages.filter((message) => message.to.includes(address ?? '?'));

  it("sends everything due in one worker round, batch after batch: six students' twelve emails", async () => {
    const students = [];
    for (let n = 0; n < 6; n += 1) students.push(await completedStudent(t));
    expect(await processAllDueDeliveries(t.db, t.clock, t.config, mailer)).toBe(12);
    for (const student of students) {
      expect(mailTo(student.email)).toHaveLength(1);
      expect(mailTo(student.court.email)).toHaveLength(1);
    }
    expect(await deliver()).toBe(0);
  });

  it('renders the PDF once when a download and the delivery worker ask for it at once, and mails those very bytes', async () => {
    const student = await completedStudent(t);
    const [downloaded, sent] = await Promise.all([
      student.client.get(`/api/certificates/${student.certificate.number}/pdf`),
      deliver(),
    ]);
    expect(sent).toBe(2);
    const { pdf, pdfSha256 } = await storedCertificate(t.db, student.certificate.id);
    expect(pdf && downloaded.rawPayload.equals(pdf)).toBe(true);
    expect(pdfSha256).toBe(sha256(downloaded.rawPayload));
    const mailed = [...mailTo(student.email), ...mailTo(student.court.email)];
    expect(mailed).toHaveLength(2);
    for (const mail of mailed) expect(pdf && mail.attachments[0]?.content.equals(pdf)).toBe(true);
  });

  it('sends the student and the court clerk each an email with the PDF attached, and shows both as sent', async () => {
    const student = await completedStudent(t);
    const { certificate } = student;

    expect(await deliver()).toBe(2);

    const [toStudent, ...moreToStudent] = mailTo(student.email);
    const [toClerk, ...moreToClerk] = mailTo(student.court.email);
    expect(moreToStudent).toEqual([]);
    expect(moreToClerk).toEqual([]);
    for (const mail of [toStudent, toClerk]) {
      expect(mail?.from).toBe('certificates@traffic-school.example');
      expect(mail?.attachments).toHaveLength(1);
      const attachment = mail!.attachments[0]!;
      expect(attachment.filename).toBe('Certificate_Of_Completion.pdf');
      expect(attachment.contentType).toBe('application/pdf');
      const { pdf } = await storedCertificate(t.db, certificate.id);
      expect(pdf && attachment.content.equals(pdf)).toBe(true);
      expect((await PDFDocument.load(attachment.content)).getPageCount()).toBe(1);
    }
    expect(toStudent?.subject).toBe(`Your certificate of completion (${certificate.number})`);
    expect(toStudent?.messageId).toBe(`<certificate-${String(certificate.id)}-student@traffic-school.local>`);
    expect(toClerk?.subject).toContain(certificate.number);
    expect(toClerk?.text).toContain(`Dear Clerk of the ${student.court.name}`);
    expect(toClerk?.messageId).toBe(`<certificate-${String(certificate.id)}-court@traffic-school.local>`);

    const deliveries = await deliveriesOf(t.db, certificate.id);
    expect(deliveries.map((d) => [d.recipient, d.status, d.attempts, d.sentAt, d.lastError])).toEqual([
      ['student', 'sent', 1, t.clock.now(), null],
      ['court', 'sent', 1, t.clock.now(), null],
    ]);
    const listed = await student.client.get(`/api/students/${String(student.id)}/certificate/all`);
    expect(listed.json<Certificate[]>()[0]?.deliveries).toEqual([
      { recipient: 'student', status: 'sent', sent_at: t.clock.now().toISOString() },
      { recipient: 'court', status: 'sent', sent_at: t.clock.now().toISOString() },
    ]);

    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toHaveLength(1);
  });

  it('keeps both emails queued with a retry time while the mail server is down, and sends each exactly once when it is back', async () => {
    const student = await completedStudent(t);
    await smtp.stop();

    expect(await deliver()).toBe(0);

    const failedAt = t.clock.now();
    const waiting = await deliveriesOf(t.db, student.certificate.id);
    expect(waiting).toHaveLength(2);
    for (const delivery of waiting) {
      expect(delivery.status).toBe('queued');
      expect(delivery.attempts).toBe(1);
      expect(delivery.lastError).toMatch(/not delivered/);
      expect(delivery.nextAttemptAt).toEqual(new Date(failedAt.getTime() + retryDelay(1)));
      expect(delivery.nextAttemptAt.getTime()).toBeGreaterThan(failedAt.getTime());
    }

    await smtp.restart();
    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toEqual([]);

    t.clock.advance(HOUR);
    expect(await deliver()).toBe(2);
    expect(await deliver()).toBe(0);
    t.clock.advance(HOUR);
    expect(await deliver()).toBe(0);

    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toHaveLength(1);
    const messageIds = smtp.messages.map((message) => message.messageId);
    expect(messageIds.filter((id) => id.startsWith(`<certificate-${String(student.certificate.id)}-`))).toHaveLength(2);
    const sent = await deliveriesOf(t.db, student.certificate.id);
    expect(sent.map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
    ]);
  });

  it('sends each email once when two delivery rounds run at the same time', async () => {
    const student = await completedStudent(t);

    const [one, two] = await Promise.all([deliver(), deliver()]);

    expect(one + two).toBe(2);
    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toHaveLength(1);
  });

  it('never sends an email twice when a slow mail server makes a round outlast its lease and another instance’s round starts', async () => {
    const finishers = [await completedStudent(t), await completedStudent(t), await completedStudent(t)];
    let sends = 0;
    // A mail server that takes a minute per message: the sixth send starts after the five-minute
    // lease of the round's claim has run out, and another instance's worker runs a round then.
    // Whatever either round leaves undone, a later round sends; nothing may arrive twice.
    const slowMailer: Mailer = {
      kind: 'smtp',
      close: () => Promise.resolve(),
      async send(message) {
        sends += 1;
        t.clock.advance(MINUTE);
        if (sends === 6) await deliver();
        return mailer.send(message);
      },
    };

    await processAllDueDeliveries(t.db, t.clock, t.config, slowMailer);
    await deliver();

    for (const student of finishers) {
      expect(mailTo(student.email)).toHaveLength(1);
      expect(mailTo(student.court.email)).toHaveLength(1);
    }
  });

  it('retries with backoff for RETRY_FOR_MS, then leaves the delivery failed until an admin resends it', async () => {
    const student = await completedStudent(t);
    const queuedAt = t.clock.now();
    await smtp.stop();

    let rounds = 0;
    let lastQueuedRound = queuedAt;
    for (;;) {
      const roundAt = t.clock.now();
      await deliver();
      const [delivery] = await deliveriesOf(t.db, student.certificate.id);
      rounds += 1;
      if (delivery?.status !== 'queued' || rounds > 100) break;
      lastQueuedRound = roundAt;
      expect(delivery.nextAttemptAt.getTime() - roundAt.getTime()).toBe(retryDelay(delivery.attempts));
      t.clock.set(delivery.nextAttemptAt);
    }

    expect(lastQueuedRound.getTime() - queuedAt.getTime()).toBeLessThan(RETRY_FOR_MS);
    expect(t.clock.now().getTime() - queuedAt.getTime()).toBeGreaterThanOrEqual(RETRY_FOR_MS);
    const deadLetters = await deliveriesOf(t.db, student.certificate.id);
    expect(deadLetters.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', rounds],
      ['failed', rounds],
    ]);

    await smtp.restart();
    t.clock.advance(DAY);
    expect(await deliver()).toBe(0);
    expect(mailTo(student.email)).toEqual([]);

    const admin = await createStaff(t.db, { role: 'admin' });
    await resendDelivery(t.db, { clock: t.clock, staffId: admin.id }, { deliveryId: deadLetters[0]!.id });
    const [resent] = await deliveriesOf(t.db, student.certificate.id);
    expect(resent?.status).toBe('queued');
    expect(await deliver()).toBe(1);
    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo(student.court.email)).toEqual([]);
    expect((await deliveriesOf(t.db, student.certificate.id)).map((d) => d.status)).toEqual(['sent', 'failed']);
  });

  it('marks a delivery the mail server refuses for good (550) failed at once, and still sends the student’s', async () => {
    const student = await completedStudent(t, {}, { email: 'refusing.clerk@court.example' });

    expect(await deliver()).toBe(1);

    expect(mailTo(student.email)).toHaveLength(1);
    expect(mailTo('refusing.clerk@court.example')).toEqual([]);
    const [toStudent, toCourt] = await deliveriesOf(t.db, student.certificate.id);
    expect(toStudent?.status).toBe('sent');
    expect(toCourt).toMatchObject({ recipient: 'court', status: 'failed', attempts: 1 });
    expect(toCourt?.lastError).toContain('550');

    t.clock.advance(2 * HOUR);
    expect(await deliver()).toBe(0);
    expect((await deliveriesOf(t.db, student.certificate.id))[1]?.attempts).toBe(1);
  });
});
