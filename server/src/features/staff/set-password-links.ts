import { and, eq, gt, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import { SET_PASSWORD_LINK_HOURS } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { staffPasswordTokens } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import type { Clock } from '../../platform/clock.ts';
import { schoolDetails } from '../../platform/email-templates/email.ts';
import { staffPasswordLinkEmail } from '../../platform/email-templates/staff-emails.tsx';
import { describeMailFailure } from '../../platform/mail/mailer.ts';
import { createToken, hashToken } from '../../platform/tokens.ts';
import { AppError } from '../../plugins/errors.ts';

/**
 * One-time set-password links (decision 011): how a staff member chooses a password, for a new
 * account or after a reset. Only the token's SHA-256 is stored; a link works once, expires after
 * SET_PASSWORD_LINK_HOURS, and ends with what it was issued under (decision 039).
 */

export type MailDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer'>;
export interface MailLog {
  error: (object: object, message: string) => void;
}

const LINK_MS = SET_PASSWORD_LINK_HOURS * 3600_000;

export const invalidLink = () =>
  new AppError('INVALID_LINK', 'This link is invalid or has expired. Ask a super admin for a new one.');

/**
 * Ends the unused set-password links that match `which` (a member's own, or those a member
 * issued). A link is a password waiting to be chosen, so it must not outlive what it was issued
 * under: the member's password, address, role or account, and its issuer's power to issue it.
 */
export async function expireOpenLinks(tx: Db, now: Date, which: SQL): Promise<void> {
  await tx
    .update(staffPasswordTokens)
    .set({ expiresAt: now })
    .where(and(which, isNull(staffPasswordTokens.usedAt), gt(staffPasswordTokens.expiresAt, now)));
}

export interface IssuedLink {
  setPasswordUrl: string;
  expiresAt: Date;
}

/**
 * A new one-time set-password link for a member; earlier unused links stop working so only the
 * newest does. Only the token's SHA-256 is stored, and it travels in the URL's fragment, which
 * browsers never send to a server (so it is in no access log).
 */
export async function issueSetPasswordToken(
  tx: Db,
  clock: Clock,
  config: Config,
  staffId: number,
  createdBy: number,
): Promise<IssuedLink> {
  const now = clock.now();
  await expireOpenLinks(tx, now, eq(staffPasswordTokens.staffId, staffId));
  const token = createToken();
  const expiresAt = new Date(now.getTime() + LINK_MS);
  await tx
    .insert(staffPasswordTokens)
    .values({ tokenHash: hashToken(token), staffId, createdByStaffId: createdBy, createdAt: now, expiresAt });
  return { setPasswordUrl: `${config.publicUrl}/set-password#token=${token}`, expiresAt };
}

/**
 * Emails the link to the member (plain text, never a password). A failure does not undo the
 * account or the link: the super_admin sees the link once and can pass it on. Only the kind of
 * failure is logged, not the address.
 */
export async function emailSetPasswordLink(
  deps: MailDeps,
  log: MailLog,
  member: { id: number; name: string; username: string; email: string },
  link: IssuedLink,
  reason: 'new_account' | 'new_link',
): Promise<boolean> {
  const { config } = deps;
  try {
    const { subject, text, html } = await staffPasswordLinkEmail(
      {
        school: schoolDetails(config),
        name: member.name,
        username: member.username,
        reason,
        setPasswordUrl: link.setPasswordUrl,
        expiresAt: link.expiresAt,
        linkHours: SET_PASSWORD_LINK_HOURS,
        timeZone: config.schoolTimeZone,
      },
      // Staff read the school's language of record.
      'en',
    );
    await deps.mailer.send({ to: member.email, subject, text, html });
    return true;
  } catch (error) {
    log.error(
      {
        staffId: member.id,
        error: describeMailFailure(error),
      },
      'set-password email was not sent',
    );
    return false;
  }
}

export const linkAnswer = (link: IssuedLink, emailed: boolean) => ({
  setPasswordUrl: link.setPasswordUrl,
  expires_at: link.expiresAt.toISOString(),
  emailed,
});

/** Deletes set-password links that were used or expired (the retention job, decision 014). */
export async function purgeDeadSetPasswordLinks(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(staffPasswordTokens)
    .where(or(isNotNull(staffPasswordTokens.usedAt), lt(staffPasswordTokens.expiresAt, now)))
    .returning({ tokenHash: staffPasswordTokens.tokenHash });
  return purged.length;
}
