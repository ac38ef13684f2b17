import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { NodemailerError, SendMailOptions } from 'nodemailer';
import { isPermanentResponseCode } from 'nodemailer/lib/errors';
import SMTPPool from 'nodemailer/lib/smtp-pool';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.ts';

/**
 * Outgoing mail: SMTP when a server is configured, otherwise an outbox folder of .eml files so
 * a school running locally can open exactly what would have been sent.
 */

export interface MailAttachment {
  filename: string;
  content: Uint8Array | Buffer;
  contentType: string;
}

export interface MailMessage {
  /**
   * One recipient. With a comma-separated list, a server that accepts some recipients and refuses
   * others delivers to the accepted ones and the send resolves.
   */
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** stable id so a retried send can be recognised, e.g. 'certificate-12-student' */
  messageId?: string;
}

export interface Mailer {
  /** Resolves with the Message-ID header as sent, e.g. `<certificate-12-student@traffic-school.local>`. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
  readonly kind: 'smtp' | 'outbox';
}

/**
 * A message that was not delivered. `permanent` means the server refused this message for good
 * (a 5xx answer to the recipient or the content, RFC 5321 4.2.1): sending it again will fail
 * again. Anything else (connection refused, timeouts, 4xx, a bad login) may succeed later.
 */
export class MailDeliveryError extends Error {
  readonly permanent: boolean;
  /** The SMTP reply code, when the server answered. */
  readonly responseCode: number | undefined;

  constructor(message: string, options: { permanent: boolean; responseCode?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'MailDeliveryError';
    this.permanent = options.permanent;
    this.responseCode = options.responseCode;
  }
}

/**
 * A failed send as a log line may hold it: its kind and the server's code, never its message (a
 * refusal names the recipient, a student's or a staff member's address).
 */
export function describeMailFailure(error: unknown): { type: string; permanent?: boolean; responseCode?: number } {
  if (error instanceof MailDeliveryError) {
    return {
      type: error.name,
      permanent: error.permanent,
      ...(error.responseCode === undefined ? {} : { responseCode: error.responseCode }),
    };
  }
  return { type: error instanceof Error ? error.name : typeof error };
}

interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
}

const MESSAGE_ID_DOMAIN = 'traffic-school.local';

// The id becomes part of a header and of a file name, so it is kept to characters safe in both.
const MESSAGE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;
/** How long a pooled SMTP connection may sit idle before it is closed. */
const SMTP_IDLE_MS = 10_000;

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.from) : createOutboxMailer(options);
}

function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // A pool of at most two connections, each kept for a while: opening a connection (greeting,
  // EHLO, TLS with a real provider) costs far more than a message, and a busy afternoon sends
  // hundreds of certificates in a row (decision 019). An idle connection closes after IDLE_MS;
  // close() closes the rest.
  // A message whose connection drops mid-send is not sent again by the pool (maxRequeues 0):
  // the delivery worker decides about retries, so nothing is sent twice behind its back.
  // Options in the URL's query (`?ignoreTLS=true`, `?greetingTimeout=2000`) override these.
  const transport = new SMTPPool({
    url: smtpUrl,
    ...SMTP_TIMEOUTS,
    maxConnections: 2,
    maxMessages: 100,
    maxRequeues: 0,
    idleTimeout: SMTP_IDLE_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const transporter = nodemailer.createTransport(transport);
  return {
    kind: 'smtp',
    async send(message) {
      const mail = composeMail(message, from);
      try {
        await transporter.sendMail(mail.options);
      } catch (error) {
        throw toDeliveryError(error, message.to);
      }
      return { messageId: mail.messageIdHeader };
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}

function createOutboxMailer(options: MailerOptions): Mailer {
  const transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    kind: 'outbox',
    async send(message) {
      const mail = composeMail(message, options.from);
      const fileName = `${new Date().toISOString().replaceAll(':', '-')}-${mail.localId}.eml`;
      const target = path.join(options.outboxDir, fileName);
      try {
        const info = await transporter.sendMail(mail.options);
        if (!Buffer.isBuffer(info.message)) throw new Error('the stream transport did not return a buffer');
        // The messages hold set-password links and certificates (birth date, licence number):
        // the folder and every file are the server's user's only, even in a folder made earlier.
        await mkdir(options.outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
        await chmod(options.outboxDir, PRIVATE_DIR_MODE);
        // Written under a temporary name first so anyone watching the folder never opens half a file.
        const partial = `${target}.${randomUUID()}.partial`;
        await writeFile(partial, info.message, { mode: PRIVATE_FILE_MODE });
        await rename(partial, target);
      } catch (error) {
        throw new MailDeliveryError(`could not write ${fileName} to the outbox: ${errorMessage(error)}`, {
          permanent: false,
          cause: error,
        });
      }
      return { messageId: mail.messageIdHeader };
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}

/** One address mail can be delivered to: a local part, @, and a domain with a dot, no spaces or brackets. */
const DELIVERABLE_ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\.]{2,}$/;

/**
 * Decision 026: an address that cannot receive mail (spec 5 lets a student register with any text
 * as email) fails at once and for good, with a reason staff can read, instead of being written
 * to the outbox with no To: header or retried by the mail server for a day.
 */
export function assertDeliverableAddress(to: string): void {
  const addresses = to.split(',').map((address) => address.trim());
  const bad = addresses.find((address) => !DELIVERABLE_ADDRESS.test(address));
  if (bad !== undefined) {
    throw new MailDeliveryError(`"${bad}" is not an email address mail can be delivered to; correct the address.`, {
      permanent: true,
    });
  }
}

function composeMail(
  message: MailMessage,
  from: string,
): { options: SendMailOptions; localId: string; messageIdHeader: string } {
  assertDeliverableAddress(message.to);
  const localId = message.messageId ?? randomUUID();
  if (!MESSAGE_ID_PATTERN.test(localId)) {
    throw new TypeError(`messageId must match ${String(MESSAGE_ID_PATTERN)}, got ${JSON.stringify(localId)}`);
  }
  const messageIdHeader = `<${localId}@${MESSAGE_ID_DOMAIN}>`;
  const options: SendMailOptions = {
    from,
    to: message.to,
    subject: message.subject,
    messageId: messageIdHeader,
    // nodemailer labels text and html parts `charset=utf-8` and encodes non-ASCII headers as UTF-8
    // encoded words, so names such as "José Núñez" survive; the tests check the raw message.
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.isBuffer(attachment.content)
        ? attachment.content
        : Buffer.from(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength),
    })),
  };
  return { options, localId, messageIdHeader };
}

function toDeliveryError(error: unknown, to: string): MailDeliveryError {
  const details = (typeof error === 'object' && error !== null ? error : {}) as NodemailerError;
  const responseCode = typeof details.responseCode === 'number' ? details.responseCode : undefined;
  // Only a refusal of the envelope (RCPT TO/MAIL FROM) or of the message itself is about this
  // message; a 5xx to AUTH is a configuration problem that fixing the settings cures.
  const aboutThisMessage = details.code === 'EENVELOPE' || details.code === 'EMESSAGE';
  const permanent = aboutThisMessage && responseCode !== undefined && isPermanentResponseCode(responseCode);
  const code = details.code ? ` (${details.code}${responseCode === undefined ? '' : ` ${String(responseCode)}`})` : '';
  return new MailDeliveryError(`mail to ${to} was not delivered${code}: ${errorMessage(error)}`, {
    permanent,
    ...(responseCode === undefined ? {} : { responseCode }),
    cause: error,
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
