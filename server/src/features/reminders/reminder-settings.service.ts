import { and, eq, isNull } from 'drizzle-orm';
import type { ReminderSetting } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';

/** The student's own reminder setting (decision 059): on unless they turned it off. */
export async function getReminderSetting(db: Db, studentId: number): Promise<ReminderSetting> {
  const [row] = await db
    .select({ remindersOff: students.remindersOff })
    .from(students)
    .where(and(eq(students.id, studentId), isNull(students.archivedAt)));
  if (!row) throw notFound('No such student.');
  return { remindersOn: !row.remindersOff };
}

/** Turns the student's reminders on or off; an archived enrolment is not changed (decision 041). */
export async function setReminderSetting(
  db: Db,
  input: { studentId: number; setting: ReminderSetting },
): Promise<ReminderSetting> {
  const [row] = await db
    .update(students)
    .set({ remindersOff: !input.setting.remindersOn })
    .where(and(eq(students.id, input.studentId), isNull(students.archivedAt)))
    .returning({ remindersOff: students.remindersOff });
  if (!row) throw notFound('No such student.');
  return { remindersOn: !row.remindersOff };
}
