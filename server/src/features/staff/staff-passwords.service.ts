import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { staff, staffPasswordTokens } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { staffPasswordWeakness } from '../../platform/password-strength.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { hashToken } from '../../platform/tokens.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import { endStaffSessions } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { staffAccountThrottleSubject, withGuessThrottle } from '../auth/throttle.ts';
import { expireOpenLinks, invalidLink } from './set-password-links.ts';

/** A staff member's own password: chosen through a one-time link, or changed while signed in. */

// Spec 8, word for word.
const wrongPassword = () =>
  new AppError(
    'WRONG_PASSWORD',
    'There was an error changing your password. Please ensure your current password was typed correctly.',
  );
const WEAK_PASSWORD_MESSAGES = {
  contains_name: 'The password must not contain your username or email name.',
  too_guessable: 'The password is too easy to guess: use a few unrelated words.',
} as const;

/** Refuses (400 WEAK_PASSWORD, saying why) a staff password that is easy to guess (decision 047). */
function assertStrongStaffPassword(password: string, member: { username: string; email: string }): void {
  const reason = staffPasswordWeakness(password, member);
  if (reason) throw new AppError('WEAK_PASSWORD', WEAK_PASSWORD_MESSAGES[reason], { reason });
}

/**
 * Public: a member chooses a password with their one-time link. The token is marked used by a
 * single conditional update, so of two requests with the same link only one can succeed. Every
 * session of the member ends (whoever had the old password is signed out).
 */
export async function setStaffPassword(
  db: Db,
  clock: Clock,
  input: { token: string; password: string },
): Promise<void> {
  // Whose link it is, to hold the password to its rules (a link that does not work is refused below).
  const [member] = await db
    .select({ username: staff.username, email: staff.email })
    .from(staffPasswordTokens)
    .innerJoin(staff, eq(staff.id, staffPasswordTokens.staffId))
    .where(eq(staffPasswordTokens.tokenHash, hashToken(input.token)));
  if (!member) throw invalidLink();
  assertStrongStaffPassword(input.password, member);
  const passwordHash = await hashPassword(input.password);
  const done = await db.transaction(async (tx) => {
    const now = clock.now();
    const [used] = await tx
      .update(staffPasswordTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffPasswordTokens.tokenHash, hashToken(input.token)),
          isNull(staffPasswordTokens.usedAt),
          gt(staffPasswordTokens.expiresAt, now),
          inArray(staffPasswordTokens.staffId, tx.select({ id: staff.id }).from(staff).where(isNull(staff.disabledAt))),
          // Whoever issued it may still issue links (updateStaffAccount also expires them).
          inArray(
            staffPasswordTokens.createdByStaffId,
            tx
              .select({ id: staff.id })
              .from(staff)
              .where(and(eq(staff.role, 'super_admin'), isNull(staff.disabledAt))),
          ),
        ),
      )
      .returning({ staffId: staffPasswordTokens.staffId });
    if (!used) return false;
    const [before] = await tx
      .select({ passwordSetAt: staff.passwordSetAt })
      .from(staff)
      .where(eq(staff.id, used.staffId));
    await tx.update(staff).set({ passwordHash, passwordSetAt: now }).where(eq(staff.id, used.staffId));
    await endStaffSessions(tx, clock, used.staffId);
    await recordAudit(tx, clock, {
      staffId: used.staffId,
      action: 'change_password',
      entityType: 'staff',
      entityId: used.staffId,
      before: { password_set_at: before?.passwordSetAt?.toISOString() ?? null },
      after: { password_set_at: now.toISOString(), via: 'set_password_link' },
    });
    return true;
  });
  if (!done) throw invalidLink();
}

/**
 * Spec 7 POST /admin/change-password: a staff member changes their own password. A wrong current
 * password counts as a failed sign-in of the account (the same throttle subject as
 * authenticateStaff's), so it cannot be guessed here faster than at the login page. Every other
 * session of the member ends; this one continues.
 */
export async function changeStaffPassword(
  db: Db,
  { clock, auth, ip }: { clock: Clock; auth: { staffId: number; tokenHash: string }; ip: string },
  input: { userId: number; currentPw: string; newPw: string },
): Promise<void> {
  if (input.userId !== auth.staffId) throw forbidden('You can only change your own password.');
  const who = {
    scope: 'admin',
    subject: staffAccountThrottleSubject(auth.staffId),
    ip,
    tooManyMessage: 'Too many failed attempts. Please wait 15 minutes and try again.',
  } as const;
  const changed = await withGuessThrottle(db, clock, who, async (tx, recordFailure) => {
    const [member] = await tx.select().from(staff).where(eq(staff.id, auth.staffId));
    if (!member) throw notFound();
    if (!(await verifyPassword(member.passwordHash, input.currentPw))) {
      await recordFailure();
      return false;
    }
    assertStrongStaffPassword(input.newPw, member);
    const now = clock.now();
    await tx
      .update(staff)
      .set({ passwordHash: await hashPassword(input.newPw), passwordSetAt: now })
      .where(eq(staff.id, member.id));
    await endStaffSessions(tx, clock, member.id, { exceptTokenHash: auth.tokenHash });
    // A link sent before (a reset the member did not need) would undo the new password.
    await expireOpenLinks(tx, now, eq(staffPasswordTokens.staffId, member.id));
    await recordAudit(tx, clock, {
      staffId: member.id,
      action: 'change_password',
      entityType: 'staff',
      entityId: member.id,
      before: { password_set_at: member.passwordSetAt?.toISOString() ?? null },
      after: { password_set_at: now.toISOString() },
    });
    return true;
  });
  if (!changed) throw wrongPassword();
}
