import { eq } from 'drizzle-orm';
import type { IdentityCheckState, OpenIdentityCheck } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { counties, courts, students } from '../../db/schema.ts';
import type { CourseLock } from './course-locks.ts';
import { type CheckRow, stableHash } from './identity-schedule.ts';

// What the student's page is shown of a check and a lock.

/**
 * Four court names for a 'court' question: the student's and three others (of the same state
 * first), in an order fixed per check (a stable hash of the check and the court) so a reload
 * shows the same list.
 */
async function courtChoices(db: Db, checkId: number, courtId: number): Promise<string[]> {
  const rows = await db
    .select({ id: courts.id, name: courts.name, state: counties.state })
    .from(courts)
    .innerJoin(counties, eq(counties.id, courts.countyId));
  const own = rows.find((row) => row.id === courtId);
  if (!own) return [];
  const others = rows
    .filter((row) => row.id !== courtId && row.name !== own.name)
    .sort(
      (a, b) =>
        Number(a.state !== own.state) - Number(b.state !== own.state) ||
        stableHash(`${String(checkId)}:${String(a.id)}`) - stableHash(`${String(checkId)}:${String(b.id)}`),
    )
    .slice(0, 3);
  return [own, ...others]
    .map((row) => row.name)
    .sort((a, b) => stableHash(`${String(checkId)}:${a}`) - stableHash(`${String(checkId)}:${b}`));
}

export async function presentCheck(db: Db, now: Date, row: CheckRow): Promise<OpenIdentityCheck> {
  const check: OpenIdentityCheck = {
    id: row.id,
    source: row.source,
    question_key: row.source === 'personal' && row.personalKey ? `personal.${row.personalKey}` : row.source,
    reason: row.reason,
    expires_at: row.expiresAt.toISOString(),
    seconds_left: Math.max(0, Math.ceil((row.expiresAt.getTime() - now.getTime()) / 1000)),
  };
  if (row.source === 'court') {
    const [student] = await db
      .select({ courtId: students.courtId })
      .from(students)
      .where(eq(students.id, row.studentId));
    if (student) check.choices = await courtChoices(db, row.id, student.courtId);
  }
  return check;
}

export function presentLock(lock: CourseLock): NonNullable<IdentityCheckState['locked']> {
  return { until: lock.lockedUntil?.toISOString() ?? null, reason: lock.reason };
}
