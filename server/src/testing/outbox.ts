import fs from 'node:fs';

/**
 * The messages the outbox mailer has finished writing, oldest first: a message is written under a
 * temporary `.partial` name and renamed when whole (platform/mail/mailer.ts), so only `.eml` files
 * are mail a reader may open.
 */
export function sentMailFiles(outboxDir: string): string[] {
  return fs
    .readdirSync(outboxDir)
    .filter((name) => name.endsWith('.eml'))
    .sort();
}
