import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { moduleCompletions } from '../../db/schema.ts';

/** What other features read of course progress (decision 017: the progress feature owns it). */

/** Which of these modules the student completed. */
export async function listCompletedModuleIds(
  db: Db,
  input: { studentId: number; moduleIds: readonly number[] },
): Promise<Set<number>> {
  if (input.moduleIds.length === 0) return new Set();
  // All of the student's completions (a few dozen at most), one prepared statement for any module list.
  const rows = await prepareOnce(db, 'list_module_completions', (database) =>
    database
      .select({ moduleId: moduleCompletions.moduleId })
      .from(moduleCompletions)
      .where(eq(moduleCompletions.studentId, sql.placeholder('studentId')))
      .prepare('list_module_completions'),
  ).execute({ studentId: input.studentId });
  const wanted = new Set(input.moduleIds);
  return new Set(rows.map((row) => row.moduleId).filter((id) => wanted.has(id)));
}
