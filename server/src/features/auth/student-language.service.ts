import { and, eq, isNull } from 'drizzle-orm';
import type { StudentLanguage } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';

/**
 * Stores the language a signed-in student switched the app to (decision 056): their emails are
 * written in it from then on. Only the caller's own, active enrolment.
 */
export async function updateStudentLanguage(db: Db, studentId: number, language: StudentLanguage): Promise<void> {
  await db
    .update(students)
    .set({ language })
    .where(and(eq(students.id, studentId), isNull(students.archivedAt)));
}
