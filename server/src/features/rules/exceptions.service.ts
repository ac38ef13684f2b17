import { asc, eq } from 'drizzle-orm';
import type { GrantRulesException, RulesException } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { rulesExceptions, staff } from '../../db/schema.ts';
import { lockStudentRow } from '../../db/student-lock.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { repeatWindowStart } from '../../plugins/repeats.ts';
import { findRecentIdenticalGrant } from './exceptions.queries.ts';

/**
 * A student out of attempts, or past the completion window, could only register and pay
 * again. An admin may now grant one more attempt at a quiz (or the final) or extend the window by
 * some days, always with a reason; the grant and its audit entry are written together, and the
 * limits the student meets count it from then on (quiz-rules.ts, completion.service.ts).
 * The same grant again from the same staff member within a minute is the same grant (decision 040).
 */
export async function grantRulesException(
  db: Db,
  clock: Clock,
  input: { staffId: number; studentId: number; grant: GrantRulesException },
): Promise<RulesException[]> {
  const { grant } = input;
  const now = clock.now();
  const chapterId = grant.kind === 'extra_attempt' ? grant.chapter : null;
  const days = grant.kind === 'extend_window' ? grant.days : null;
  await db.transaction(async (tx) => {
    // The lock first, so that a concurrent identical request waits here and then sees this one's grant.
    const student = await lockStudentRow(tx, input.studentId);
    // An archived enrolment is no longer studied (decision 041): an exception would change nothing.
    if (student?.archivedAt) {
      throw new AppError('ENROLMENT_ARCHIVED', 'This enrolment is archived: grant the exception on the current one.');
    }
    const repeated = await findRecentIdenticalGrant(tx, {
      studentId: input.studentId,
      staffId: input.staffId,
      kind: grant.kind,
      chapterId,
      days,
      since: repeatWindowStart(now),
    });
    if (repeated) return;
    const [created] = await tx
      .insert(rulesExceptions)
      .values({
        studentId: input.studentId,
        kind: grant.kind,
        chapterId,
        days,
        reason: grant.reason,
        staffId: input.staffId,
        createdAt: now,
      })
      .returning({ id: rulesExceptions.id });
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: grant.kind === 'extra_attempt' ? 'grant_extra_attempt' : 'extend_completion_window',
      entityType: 'student',
      entityId: input.studentId,
      before: null,
      after: {
        exception_id: created?.id ?? null,
        ...(grant.kind === 'extra_attempt' ? { chapter: grant.chapter } : { days: grant.days }),
        reason: grant.reason,
      },
    });
  });
  return listRulesExceptions(db, input.studentId);
}

/** A student's exceptions, oldest first, with who granted each. */
export async function listRulesExceptions(db: Db, studentId: number): Promise<RulesException[]> {
  const rows = await db
    .select({ exception: rulesExceptions, grantedBy: staff.name })
    .from(rulesExceptions)
    .innerJoin(staff, eq(staff.id, rulesExceptions.staffId))
    .where(eq(rulesExceptions.studentId, studentId))
    .orderBy(asc(rulesExceptions.createdAt), asc(rulesExceptions.id));
  return rows.map(({ exception, grantedBy }) => ({
    id: exception.id,
    kind: exception.kind,
    chapter: exception.chapterId,
    days: exception.days,
    reason: exception.reason,
    granted_by: grantedBy,
    created_at: exception.createdAt.toISOString(),
  }));
}
