import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { moduleCompletions } from '../../db/schema.ts';

/** What other features read of course progress (decision 017: the progress feature owns it). */

/** Which of these modules the student completed. */
export async function listCompletedModuleIds(
  db: Db,
  input: { studentId: number; moduleIds: readonly number[] },
): Promise<Set<number>> {
  if (input.moduleIds.length === 0) return new Set();
  const rows = await db
    .select({ moduleId: moduleCompletions.moduleId })
    .from(moduleCompletions)
    .where(
      and(eq(moduleCompletions.studentId, input.studentId), inArray(moduleCompletions.moduleId, [...input.moduleIds])),
    );
  return new Set(rows.map((row) => row.moduleId));
}
