import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { SET_PASSWORD_LINK_HOURS, type StaffAccount, type StaffRole } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { courts, staff, staffPasswordTokens } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import type { Clock } from '../../platform/clock.ts';
import { schoolDetails } from '../../platform/email-templates/email.ts';
import { staffPasswordLinkEmail } from '../../platform/email-templates/staff-emails.ts';
import { describeMailFailure } from '../../platform/mail/mailer.ts';
import { staffPasswordWeakness } from '../../platform/password-strength.ts';
import { generatePassword, hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { createToken, hashToken } from '../../platform/tokens.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import { endStaffSessions } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { staffAccountThrottleSubject, withGuessThrottle } from '../auth/throttle.ts';

type StaffRow = typeof staff.$inferSelect;
type MailDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer'>;
export interface MailLog {
  error: (object: object, message: string) => void;
}

const LINK_MS = SET_PASSWORD_LINK_HOURS * 3600_000;

// Spec 8, word for word.
const wrongPassword = () =>
  new AppError(
    'WRONG_PASSWORD',
    'There was an error changing your password. Please ensure your current password was typed correctly.',
  );
const staffExists = () => new AppError('STAFF_EXISTS', 'A staff member with this username or email already exists.');
const invalidLink = () =>
  new AppError('INVALID_LINK', 'This link is invalid or has expired. Ask a super admin for a new one.');

function toAccount(member: StaffRow, courtName: string | null): StaffAccount {
  return {
    id: member.id,
    username: member.username,
    email: member.email,
    name: member.name,
    role: member.role,
    court_id: member.courtId,
    court_name: courtName,
    created_at: member.createdAt.toISOString(),
    disabled_at: member.disabledAt?.toISOString() ?? null,
    password_set: member.passwordSetAt !== null,
  };
}

async function findAccount(db: Db, id: number): Promise<{ member: StaffRow; account: StaffAccount } | null> {
  const [row] = await db
    .select({ member: staff, courtName: courts.name })
    .from(staff)
    .leftJoin(courts, eq(courts.id, staff.courtId))
    .where(eq(staff.id, id));
  return row ? { member: row.member, account: toAccount(row.member, row.courtName) } : null;
}

/** Every staff account, disabled ones too, by name. */
export async function listStaffAccounts(db: Db): Promise<StaffAccount[]> {
  const rows = await db
    .select({ member: staff, courtName: courts.name })
    .from(staff)
    .leftJoin(courts, eq(courts.id, staff.courtId))
    .orderBy(asc(sql`lower(${staff.name})`), asc(staff.id));
  return rows.map((row) => toAccount(row.member, row.courtName));
}

/**
 * Decision 011: an admin or a clerk can be limited to a court (a court's own clerk reads only its
 * students), never a super_admin; the court must exist.
 */
async function assertCourtRule(db: Db, role: StaffRole, courtId: number | null): Promise<void> {
  if (courtId === null) return;
  if (role === 'super_admin')
    throw new AppError('SUPER_ADMIN_ALL_COURTS', 'A super admin cannot be limited to one court.');
  const [court] = await db.select({ id: courts.id }).from(courts).where(eq(courts.id, courtId));
  if (!court) throw new AppError('NO_SUCH_COURT', 'That court does not exist.');
}

async function assertUnique(db: Db, input: { username?: string; email: string }, exceptId?: number): Promise<void> {
  const matches = or(
    input.username === undefined ? undefined : sql`lower(${staff.username}) = ${input.username.toLowerCase()}`,
    sql`lower(${staff.email}) = ${input.email.toLowerCase()}`,
  );
  const [row] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(exceptId === undefined ? matches : and(matches, ne(staff.id, exceptId)))
    .limit(1);
  if (row) throw staffExists();
}

/**
 * Ends the unused set-password links that match `which` (a member's own, or those a member
 * issued). A link is a password waiting to be chosen, so it must not outlive what it was issued
 * under: the member's password, address, role or account, and its issuer's power to issue it.
 */
async function expireOpenLinks(tx: Db, now: Date, which: SQL): Promise<void> {
  await tx
    .update(staffPasswordTokens)
    .set({ expiresAt: now })
    .where(and(which, isNull(staffPasswordTokens.usedAt), gt(staffPasswordTokens.expiresAt, now)));
}

interface IssuedLink {
  setPasswordUrl: string;
  expiresAt: Date;
}

/**
 * A new one-time set-password link for a member; earlier unused links stop working so only the
 * newest does. Only the token's SHA-256 is stored, and it travels in the URL's fragment, which
 * browsers never send to a server (so it is in no access log).
 */
async function issueToken(
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
async function emailLink(
  deps: MailDeps,
  log: MailLog,
  member: { id: number; name: string; username: string; email: string },
  link: IssuedLink,
  reason: 'new_account' | 'new_link',
): Promise<boolean> {
  const { config } = deps;
  try {
    const { subject, text } = staffPasswordLinkEmail(
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
    await deps.mailer.send({ to: member.email, subject, text });
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

const linkAnswer = (link: IssuedLink, emailed: boolean) => ({
  setPasswordUrl: link.setPasswordUrl,
  expires_at: link.expiresAt.toISOString(),
  emailed,
});

export interface StaffAccountInput {
  email: string;
  name: string;
  role: StaffRole;
  court_id: number | null;
}

/**
 * A super_admin creates a staff account. It has no usable password until the member follows the
 * one-time link that is emailed to them and shown once to the super_admin.
 */
export async function createStaffAccount(
  deps: MailDeps,
  { log, actorId }: { log: MailLog; actorId: number },
  input: StaffAccountInput & { username: string },
) {
  const { db, clock, config } = deps;
  await assertCourtRule(db, input.role, input.court_id);
  await assertUnique(db, input);
  // Nobody knows this password: the account cannot sign in before a password is chosen.
  const passwordHash = await hashPassword(generatePassword());
  let created: { account: StaffAccount; link: IssuedLink };
  try {
    created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(staff)
        .values({
          username: input.username,
          email: input.email,
          name: input.name,
          role: input.role,
          courtId: input.court_id,
          passwordHash,
          passwordSetAt: null,
          createdAt: clock.now(),
        })
        .returning({ id: staff.id });
      if (!row) throw new Error('staff member was not created');
      const found = await findAccount(tx, row.id);
      if (!found) throw new Error('staff member was not created');
      const link = await issueToken(tx, clock, config, row.id, actorId);
      await recordAudit(tx, clock, {
        staffId: actorId,
        action: 'create_staff',
        entityType: 'staff',
        entityId: row.id,
        before: null,
        after: found.account,
      });
      return { account: found.account, link };
    });
  } catch (error) {
    // Two super_admins creating the same username at once: the unique index decides.
    if (isUniqueViolation(error)) throw staffExists();
    throw error;
  }
  const emailed = await emailLink(deps, log, created.account, created.link, 'new_account');
  return { user: created.account, link: linkAnswer(created.link, emailed) };
}

/** Serialises changes that could leave the school without an active super_admin. */
const SUPER_ADMIN_LOCK = 'staff:active-super-admins';

/**
 * A super_admin edits an account, or disables or enables it. Disabling ends the member's
 * sessions. Nobody disables or demotes themself, and the last active super_admin stays one.
 */
export async function updateStaffAccount(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  { actorId }: { actorId: number },
  { id, ...input }: StaffAccountInput & { id: number; disabled: boolean },
): Promise<StaffAccount> {
  const { db, clock } = deps;
  await assertCourtRule(db, input.role, input.court_id);
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SUPER_ADMIN_LOCK}))`);
      const found = await findAccount(tx, id);
      if (!found) throw notFound();
      const { member, account: before } = found;
      await assertUnique(tx, { email: input.email }, id);

      const wasActiveSuperAdmin = member.role === 'super_admin' && member.disabledAt === null;
      const staysActiveSuperAdmin = input.role === 'super_admin' && !input.disabled;
      if (wasActiveSuperAdmin && !staysActiveSuperAdmin) {
        if (id === actorId) throw new AppError('OWN_ACCOUNT', 'You cannot disable or demote your own account.');
        const [others] = await tx
          .select({ n: count() })
          .from(staff)
          .where(and(eq(staff.role, 'super_admin'), isNull(staff.disabledAt), ne(staff.id, id)));
        if ((others?.n ?? 0) === 0)
          throw new AppError('LAST_SUPER_ADMIN', 'There must always be at least one active super admin.');
      }

      const disabling = input.disabled && member.disabledAt === null;
      await tx
        .update(staff)
        .set({
          email: input.email,
          name: input.name,
          role: input.role,
          courtId: input.court_id,
          disabledAt: input.disabled ? (member.disabledAt ?? clock.now()) : null,
        })
        .where(eq(staff.id, id));
      // A disabled member's sessions stop at once (the session lookup refuses them too).
      if (disabling) await endStaffSessions(tx, clock, id);
      // A link mailed to the old address, or issued for the old role or court, or to an account
      // now disabled, no longer sets a password; nor do links issued by a super_admin who is no
      // longer one (review: a demoted issuer's link was still a way into the account).
      const changed =
        disabling ||
        member.email.toLowerCase() !== input.email.toLowerCase() ||
        member.role !== input.role ||
        member.courtId !== input.court_id;
      if (changed) await expireOpenLinks(tx, clock.now(), eq(staffPasswordTokens.staffId, id));
      if (wasActiveSuperAdmin && !staysActiveSuperAdmin) {
        await expireOpenLinks(tx, clock.now(), eq(staffPasswordTokens.createdByStaffId, id));
      }
      const after = await findAccount(tx, id);
      if (!after) throw notFound();
      await recordAudit(tx, clock, {
        staffId: actorId,
        action: 'update_staff',
        entityType: 'staff',
        entityId: id,
        before,
        after: after.account,
      });
      return after.account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw staffExists();
    throw error;
  }
}

/** A super_admin sends a member a new one-time set-password link (a reset, or a lost first link). */
export async function issueSetPasswordLink(
  deps: MailDeps,
  { log, actorId }: { log: MailLog; actorId: number },
  { id }: { id: number },
) {
  const { db, clock, config } = deps;
  const { account, link } = await db.transaction(async (tx) => {
    const found = await findAccount(tx, id);
    if (!found) throw notFound();
    if (found.member.disabledAt !== null) {
      throw new AppError('ACCOUNT_DISABLED', 'This account is disabled. Enable it before sending a set-password link.');
    }
    const issued = await issueToken(tx, clock, config, id, actorId);
    await recordAudit(tx, clock, {
      staffId: actorId,
      action: 'issue_set_password_link',
      entityType: 'staff',
      entityId: id,
      before: null,
      // When it stops working; never the link or its token.
      after: { expires_at: issued.expiresAt.toISOString() },
    });
    return { account: found.account, link: issued };
  });
  const emailed = await emailLink(deps, log, account, link, 'new_link');
  return linkAnswer(link, emailed);
}

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

/** Deletes set-password links that were used or expired (the retention job, decision 014). */
export async function purgeDeadSetPasswordLinks(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(staffPasswordTokens)
    .where(or(isNotNull(staffPasswordTokens.usedAt), lt(staffPasswordTokens.expiresAt, now)))
    .returning({ tokenHash: staffPasswordTokens.tokenHash });
  return purged.length;
}
