import { and, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { courseLocks } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type CheckGroup, type IdentityRules, missesSinceLastLockOrPass } from './identity-schedule.ts';

// Course locks (decision 012): missed identity checks in a row lock the course for the profile's
// hours, or until an admin lifts the lock once the profile's number of locks is reached.

export type CourseLock = typeof courseLocks.$inferSelect;

/** Why a course is locked (the page translates it). */
export const MISSED_CHECKS_REASON = 'missed_identity_checks';

/** The lock in force now, if any. */
export async function activeLock(db: Db, studentId: number, now: Date): Promise<CourseLock | undefined> {
  const [lock] = await db
    .select()
    .from(courseLocks)
    .where(
      and(
        eq(courseLocks.studentId, studentId),
        isNull(courseLocks.unlockedAt),
        or(isNull(courseLocks.lockedUntil), gt(courseLocks.lockedUntil, now)),
      ),
    )
    .orderBy(desc(courseLocks.id))
    .limit(1);
  return lock;
}

/** Locks the course once the misses in a row reach the profile's count (the n-th lock waits for an admin). */
export async function lockIfMissedEnough(
  tx: Db,
  now: Date,
  studentId: number,
  rules: IdentityRules,
  before: CheckGroup[],
  after: CheckGroup[],
): Promise<void> {
  const runBefore = missesSinceLastLockOrPass(before, rules.missesBeforeLock);
  const concluded = after.at(-1);
  if (concluded?.status !== 'missed' || runBefore + 1 < rules.missesBeforeLock) return;
  const [locks] = await tx.select({ n: count() }).from(courseLocks).where(eq(courseLocks.studentId, studentId));
  const adminOnly = (locks?.n ?? 0) + 1 >= rules.locksBeforeAdminUnlock;
  await tx.insert(courseLocks).values({
    studentId,
    reason: MISSED_CHECKS_REASON,
    lockedAt: now,
    lockedUntil: adminOnly ? null : new Date(now.getTime() + rules.lockHours * 3_600_000),
  });
}

/**
 * An admin lifts the student's lock (decision 012: after the profile's number of locks only an
 * admin can), audited in the same transaction (decision 011). Nothing happens, and nothing is
 * audited, when no lock is in force.
 */
export async function unlockCourse(db: Db, clock: Clock, input: { studentId: number; staffId: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const lifted = await liftActiveLock(tx, clock, input);
    if (!lifted) return;
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: 'unlock_course',
      entityType: 'student',
      entityId: input.studentId,
      before: {
        lock_id: lifted.id,
        locked_at: lifted.lockedAt.toISOString(),
        locked_until: lifted.lockedUntil?.toISOString() ?? null,
        unlocked_at: null,
      },
      after: { lock_id: lifted.id, unlocked_at: lifted.unlockedAt?.toISOString() ?? null },
    });
  });
}

/** The lock lifted, or undefined when none was in force. */
async function liftActiveLock(
  tx: Db,
  clock: Clock,
  input: { studentId: number; staffId: number },
): Promise<CourseLock | undefined> {
  const now = clock.now();
  const lock = await activeLock(tx, input.studentId, now);
  if (!lock) return undefined;
  const [lifted] = await tx
    .update(courseLocks)
    .set({ unlockedAt: now, unlockedByStaffId: input.staffId })
    .where(eq(courseLocks.id, lock.id))
    .returning();
  return lifted;
}
