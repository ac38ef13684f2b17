import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

/**
 * A real SMTP server in the test process (smtp-server on 127.0.0.1, plain text, no login) so the
 * mail adapter runs end to end through nodemailer without the internet. Every accepted message is
 * parsed with mailparser as a mail client would read it.
 */

export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ReceivedMail {
  /** Addresses in the To header. */
  to: string[];
  /** The address in the From header. */
  from: string;
  subject: string;
  text: string;
  /** The HTML part, when the message has one. */
  html: string | undefined;
  attachments: ReceivedAttachment[];
  /** The Message-ID header, angle brackets included. */
  messageId: string;
  /** The message exactly as it came over the wire. */
  raw: Buffer;
}

export interface SmtpTestServerOptions {
  /** Recipients for which RCPT TO is refused, as a mail server refuses an unknown mailbox. */
  rejectRecipients?: (to: string) => boolean;
  /** The reply code of that refusal: 550 (mailbox unavailable, permanent) unless told otherwise. */
  rejectResponseCode?: number;
}

export interface SmtpTestServer {
  /** Connection URL for the mailer, e.g. `smtp://127.0.0.1:40123?ignoreTLS=true`. */
  readonly url: string;
  readonly port: number;
  /** Every accepted message, in order; a message is here by the time its send resolves. */
  readonly messages: ReceivedMail[];
  /** Stops listening, as a mail server that is down. Safe to call more than once. */
  stop(): Promise<void>;
  /** Stops if running, then listens again on the same port, as a mail server coming back. */
  restart(): Promise<void>;
}

export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  let running: SMTPServer | undefined;

  const createServer = () => {
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // A client that lingers must not hold stop() for smtp-server's default 30 s.
      closeTimeout: 1_000,
      onRcptTo(address, _session, callback) {
        if (options.rejectRecipients?.(address.address)) {
          const error: SMTPServerError = new Error(`Mailbox unavailable: ${address.address}`);
          error.responseCode = options.rejectResponseCode ?? 550;
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              messages.push({
                to: addressesOf(parsed.to),
                from: addressesOf(parsed.from)[0] ?? '',
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : undefined,
                attachments: parsed.attachments.map((attachment) => ({
                  filename: attachment.filename ?? '',
                  contentType: attachment.contentType,
                  content: attachment.content,
                })),
                messageId: parsed.messageId ?? '',
                raw,
              });
              callback();
            })
            .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
        });
      },
    });
    // A client dropping its connection is reported as a server 'error'; with no listener the
    // EventEmitter would throw and end the test run. The client sees its own failure anyway.
    server.on('error', () => undefined);
    return server;
  };

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      const netServer = server.listen(port, '127.0.0.1', () => {
        netServer.off('error', reject);
        running = server;
        resolve((netServer.address() as AddressInfo).port);
      });
      netServer.once('error', reject);
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const server = running;
      running = undefined;
      if (!server) {
        resolve();
        return;
      }
      server.close(resolve);
    });

  const port = await listen(0);
  return {
    url: `smtp://127.0.0.1:${String(port)}?ignoreTLS=true`,
    port,
    messages,
    stop,
    async restart() {
      await stop();
      await listen(port);
    },
  };
}

function addressesOf(header: AddressObject | AddressObject[] | undefined): string[] {
  const groups = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return groups.flatMap((group) => group.value.map((entry) => entry.address ?? ''));
}
