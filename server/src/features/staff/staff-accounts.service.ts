import { and, asc, count, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { StaffAccount, StaffOf, StaffRole } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { courts, staff, staffPasswordTokens } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { endStaffSessions } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import {
  emailSetPasswordLink,
  expireOpenLinks,
  type IssuedLink,
  issueSetPasswordToken,
  linkAnswer,
  type MailDeps,
  type MailLog,
} from './set-password-links.ts';

/** Staff accounts, a super_admin's (decision 011): listed, created, edited, disabled, sent a new link. */

type StaffRow = typeof staff.$inferSelect;

const staffExists = () => new AppError('STAFF_EXISTS', 'A staff member with this username or email already exists.');
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
 * students), never a super_admin; the court must exist. Decision 063: an account said to be a
 * court's staff names its court, and one said to be the school's names none, so a clerk meant for
 * one court never becomes a school-wide one by a court left out.
 */
async function assertCourtRule(
  db: Db,
  { role, court_id: courtId, staff_of: staffOf }: Pick<StaffAccountInput, 'role' | 'court_id' | 'staff_of'>,
): Promise<void> {
  if (role === 'super_admin' && (courtId !== null || staffOf === 'court'))
    throw new AppError('SUPER_ADMIN_ALL_COURTS', 'A super admin cannot be limited to one court.');
  if (staffOf === 'court' && courtId === null)
    throw new AppError('COURT_REQUIRED', "Please choose the court of a court's staff account.");
  if (staffOf === 'school' && courtId !== null)
    throw new AppError('SCHOOL_STAFF_ALL_COURTS', 'A school staff account sees every court: it is not limited to one.');
  if (courtId === null) return;
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

export interface StaffAccountInput {
  email: string;
  name: string;
  role: StaffRole;
  court_id: number | null;
  /** Decision 063: whom the form said the account is for; checked against the court, not stored. */
  staff_of?: StaffOf | undefined;
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
  await assertCourtRule(db, input);
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
      const link = await issueSetPasswordToken(tx, clock, config, row.id, actorId);
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
  const emailed = await emailSetPasswordLink(deps, log, created.account, created.link, 'new_account');
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
  await assertCourtRule(db, input);
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
    const issued = await issueSetPasswordToken(tx, clock, config, id, actorId);
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
  const emailed = await emailSetPasswordLink(deps, log, account, link, 'new_link');
  return linkAnswer(link, emailed);
}
