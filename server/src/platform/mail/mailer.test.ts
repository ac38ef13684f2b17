import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { createMailer, describeMailFailure, type MailAttachment, MailDeliveryError, type Mailer } from './mailer.ts';

const FROM = 'Traffic School <certificates@traffic-school.example>';

/** Bytes shaped like a PDF, with every byte value so any re-encoding would show. */
function certificatePdf(): MailAttachment {
  const body = Buffer.concat([
    Buffer.from('%PDF-1.7\n'),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    randomBytes(4096),
  ]);
  return { filename: 'certificate-12.pdf', content: body, contentType: 'application/pdf' };
}

async function sendFailure(mailer: Mailer, to: string): Promise<MailDeliveryError> {
  const error: unknown = await mailer.send({ to, subject: 'Your certificate', text: 'Attached.' }).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  return error as MailDeliveryError;
}

describe('the SMTP mailer', () => {
  let server: SmtpTestServer;
  let mailer: Mailer;

  beforeEach(async () => {
    server = await startSmtpTestServer({ rejectRecipients: (to) => to.endsWith('@nowhere.example') });
    mailer = createMailer({ smtpUrl: server.url, from: FROM, outboxDir: '/nonexistent/never-written' });
  });

  afterEach(async () => {
    await mailer.close();
    await server.stop();
  });

  it('delivers a certificate with the PDF byte for byte, the UTF-8 name, From and Message-ID as set', async () => {
    const pdf = certificatePdf();
    const result = await mailer.send({
      to: 'jose@student.example',
      subject: 'Certificado de José Núñez',
      text: 'Hola José Núñez, your certificate is attached.',
      html: '<p>Hola <b>José Núñez</b></p>',
      attachments: [pdf],
      messageId: 'certificate-12-student',
    });

    expect(mailer.kind).toBe('smtp');
    expect(result.messageId).toBe('<certificate-12-student@traffic-school.local>');
    expect(server.messages).toHaveLength(1);
    const received = server.messages[0];
    expect(received?.to).toEqual(['jose@student.example']);
    expect(received?.from).toBe('certificates@traffic-school.example');
    expect(received?.subject).toBe('Certificado de José Núñez');
    expect(received?.text.trim()).toBe('Hola José Núñez, your certificate is attached.');
    expect(received?.html).toContain('<b>José Núñez</b>');
    expect(received?.messageId).toBe('<certificate-12-student@traffic-school.local>');
    expect(received?.attachments).toHaveLength(1);
    expect(received?.attachments[0]?.filename).toBe('certificate-12.pdf');
    expect(received?.attachments[0]?.contentType).toBe('application/pdf');
    expect(received?.attachments[0]?.content.equals(pdf.content)).toBe(true);
    const raw = received?.raw.toString('latin1') ?? '';
    expect(raw).toMatch(/^From: Traffic School <certificates@traffic-school\.example>\r?$/m);
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8\r?$/m);
  });

  it('sends a Uint8Array attachment unchanged and makes up a Message-ID when none is given', async () => {
    const bytes = new Uint8Array(randomBytes(1000));
    const result = await mailer.send({
      to: 'ana@student.example',
      subject: 'Receipt',
      text: 'Thank you.',
      attachments: [{ filename: 'receipt.pdf', content: bytes.subarray(10, 500), contentType: 'application/pdf' }],
    });

    expect(result.messageId).toMatch(/^<[0-9a-f-]{36}@traffic-school\.local>$/);
    expect(server.messages[0]?.messageId).toBe(result.messageId);
    expect(server.messages[0]?.attachments[0]?.content.equals(Buffer.from(bytes.subarray(10, 500)))).toBe(true);
  });

  it('reports a mail server that is down as a transient failure, and delivers once it is back', async () => {
    await server.stop();
    await server.stop();

    const error = await sendFailure(mailer, 'jose@student.example');
    expect(error.permanent).toBe(false);
    expect(error.responseCode).toBeUndefined();

    await server.restart();
    await mailer.send({ to: 'jose@student.example', subject: 'Your certificate', text: 'Attached.' });
    expect(server.messages.map((message) => message.subject)).toEqual(['Your certificate']);
  });

  it('reports a recipient the server refuses with 550 as a permanent failure', async () => {
    const error = await sendFailure(mailer, 'nobody@nowhere.example');

    expect(error.permanent).toBe(true);
    expect(error.responseCode).toBe(550);
    expect(error.message).toContain('nobody@nowhere.example');
    expect(server.messages).toHaveLength(0);
  });

  it('reports a recipient the server defers with 450 as a transient failure', async () => {
    const deferring = await startSmtpTestServer({ rejectRecipients: () => true, rejectResponseCode: 450 });
    const deferred = createMailer({ smtpUrl: deferring.url, from: FROM, outboxDir: '/nonexistent/never-written' });
    try {
      const error = await sendFailure(deferred, 'jose@student.example');
      expect(error.permanent).toBe(false);
      expect(error.responseCode).toBe(450);
    } finally {
      await deferred.close();
      await deferring.stop();
    }
  });

  it('gives up on a server that never greets after the timeout the URL sets, as a transient failure', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const impatient = createMailer({
      smtpUrl: `smtp://127.0.0.1:${String(port)}?greetingTimeout=200`,
      from: FROM,
      outboxDir: '/nonexistent/never-written',
    });
    try {
      const started = Date.now();
      const error = await sendFailure(impatient, 'jose@student.example');
      expect(error.permanent).toBe(false);
      expect(error.message).toContain('ETIMEDOUT');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await impatient.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('the outbox mailer (no SMTP server configured)', () => {
  let outboxDir: string;

  beforeEach(async () => {
    outboxDir = path.join(await mkdtemp(path.join(tmpdir(), 'mail-outbox-')), 'outbox');
  });

  afterEach(async () => {
    await rm(path.dirname(outboxDir), { recursive: true, force: true });
  });

  it('writes each message as an .eml file that a mail client reads back the same', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir });
    const pdf = certificatePdf();

    const result = await mailer.send({
      to: 'jose@student.example',
      subject: 'Certificado de José Núñez',
      text: 'Hola José Núñez',
      attachments: [pdf],
      messageId: 'certificate-12-student',
    });
    await mailer.close();

    expect(mailer.kind).toBe('outbox');
    expect(result.messageId).toBe('<certificate-12-student@traffic-school.local>');
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-certificate-12-student\.eml$/);
    const parsed = await simpleParser(await readFile(path.join(outboxDir, files[0] ?? '')));
    expect(parsed.subject).toBe('Certificado de José Núñez');
    expect(parsed.text?.trim()).toBe('Hola José Núñez');
    expect(parsed.from?.value[0]?.address).toBe('certificates@traffic-school.example');
    expect(parsed.messageId).toBe('<certificate-12-student@traffic-school.local>');
    expect(parsed.attachments[0]?.filename).toBe('certificate-12.pdf');
    expect(parsed.attachments[0]?.contentType).toBe('application/pdf');
    expect(parsed.attachments[0]?.content.equals(pdf.content)).toBe(true);
  });

  it('keeps the outbox folder 0700 and every message 0600: they hold set-password links and certificates', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir });
    await mailer.send({ to: 'a@student.example', subject: 'Your link', text: 'https://school.example/set-password' });

    expect((await stat(outboxDir)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(outboxDir);
    expect((await stat(path.join(outboxDir, file ?? ''))).mode & 0o777).toBe(0o600);
  });

  it('narrows an outbox folder an earlier version made readable by everyone', async () => {
    await mkdir(outboxDir);
    await chmod(outboxDir, 0o755);
    await writeFile(path.join(outboxDir, 'unrelated.txt'), 'x');
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir });
    await mailer.send({ to: 'a@student.example', subject: 'Your link', text: 'x' });

    expect((await stat(outboxDir)).mode & 0o777).toBe(0o700);
  });

  it('names a message without an id after a random one, so two sends never overwrite each other', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir });

    const first = await mailer.send({ to: 'a@student.example', subject: 'One', text: '1' });
    const second = await mailer.send({ to: 'b@student.example', subject: 'Two', text: '2' });

    expect(first.messageId).not.toBe(second.messageId);
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
  });

  it('refuses a messageId that could not be a header or a file name', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir });

    await expect(
      mailer.send({ to: 'a@student.example', subject: 'x', text: 'x', messageId: '../etc/passwd' }),
    ).rejects.toThrow(TypeError);
    await expect(readdir(outboxDir)).rejects.toThrow();
  });
});

describe('a failed send as a log line holds it', () => {
  it('keeps its kind and the server’s code, never its message, which names the recipient', () => {
    const refused = new MailDeliveryError('550 5.1.1 <lucia@example.com>: no such mailbox', {
      permanent: true,
      responseCode: 550,
    });
    expect(describeMailFailure(refused)).toEqual({ type: 'MailDeliveryError', permanent: true, responseCode: 550 });
    expect(JSON.stringify(describeMailFailure(new Error('to lucia@example.com')))).not.toContain('lucia');
  });
});
