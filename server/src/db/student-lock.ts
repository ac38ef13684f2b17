import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { students } from './schema.ts';

/**
 * Locks the student's row until the transaction ends: how a per-student change keeps two tabs, two
 * clicks or two instances from both doing it (a heartbeat's credit, an identity check's outcome, a
 * repeated staff action, decision 040). A statement of its own, before the reads it guards: under
 * READ COMMITTED a statement that waited for the lock still reads with the snapshot it started
 * with, so a read in the same statement could miss what the lock's holder wrote. Answers whether
 * the enrolment is archived (read under the lock, so current), or undefined for no such student.
 */
export async function lockStudentRow(tx: Db, studentId: number): Promise<{ archivedAt: Date | null } | undefined> {
  const [row] = await tx
    .select({ archivedAt: students.archivedAt })
    .from(students)
    .where(eq(students.id, studentId))
    .for('update');
  return row;
}
