import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { type Clock, localDate, longUsDate } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import type { StudentProfile } from './rules.service.ts';
import { windowExtensionDaysColumn } from './exceptions.queries.ts';

/**
 * The completion window (decision 012). Dates are calendar days (YYYY-MM-DD) of the
 * school's time zone. The window ends `windowDays` after the day of registration; the student's
 * deadline is the earlier of that day and the court's due date given at registration.
 *
 * Only the window closes the course: a court's due date is the court's business (a court may
 * extend it, and a late certificate is still worth more than none), so passing it warns but
 * never refuses. Under the default profile (no window) a student without a due date sees nothing.
 */
export interface CompletionStatus {
  /** The last day to finish: the earlier of the window's end and the court's due date, or null. */
  deadline: string | null;
  /** true from `warnDaysBefore` days before the deadline (and after it). */
  deadlineWarning: boolean;
  /** The window's last day, or null when the profile has no window. */
  windowEnds: string | null;
  /** true once the window's last day has ended: course calls are refused. */
  closed: boolean;
}

const DAY = 86_400_000;

/** A calendar day plus (or minus) some days. */
export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** The rule itself, on plain values: what the student's deadline is on `today`. */
export function completionStatusOn(
  completion: StudentProfile['rules']['completion'],
  input: { registeredOn: string; courtDueDate: string | null; today: string; extensionDays?: number },
): CompletionStatus {
  // Days an admin added lengthen the window; without a window there is nothing to extend.
  const windowEnds =
    completion.windowDays === null
      ? null
      : addDays(input.registeredOn, completion.windowDays + (input.extensionDays ?? 0));
  const candidates = [windowEnds, input.courtDueDate].filter((day): day is string => day !== null).sort();
  const deadline = candidates[0] ?? null;
  return {
    deadline,
    deadlineWarning: deadline !== null && input.today >= addDays(deadline, -completion.warnDaysBefore),
    windowEnds,
    closed: windowEnds !== null && input.today > windowEnds,
  };
}

/** The student's deadline, warning and whether their window has closed, today. */
export async function getCompletionStatus(
  db: Db,
  context: { clock: Clock; config: Config },
  studentId: number,
  profile: StudentProfile,
): Promise<CompletionStatus> {
  const { completion } = profile.rules;
  const [student] = await db
    .select({
      createdAt: students.createdAt,
      courtDueDate: students.courtDueDate,
      extensionDays: windowExtensionDaysColumn,
    })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student) throw notFound('No such student.');
  const zone = context.config.schoolTimeZone;
  return completionStatusOn(completion, {
    registeredOn: localDate(student.createdAt, zone),
    courtDueDate: student.courtDueDate,
    today: localDate(context.clock.now(), zone),
    extensionDays: Number(student.extensionDays),
  });
}

/** The completion window (decision 012): 403 COMPLETION_WINDOW_CLOSED once its last day has ended. */
export async function assertWithinCompletionWindow(
  db: Db,
  context: { clock: Clock; config: Config },
  studentId: number,
  profile: StudentProfile,
): Promise<void> {
  // Under a profile without a window nothing closes the course (nothing is read).
  if (profile.rules.completion.windowDays === null) return;
  const status = await getCompletionStatus(db, context, studentId, profile);
  if (!status.closed || status.windowEnds === null) return;
  throw new AppError(
    'COMPLETION_WINDOW_CLOSED',
    `The time allowed to complete this course ended on ${longUsDate(status.windowEnds)}. Please contact the school.`,
    { ended_on: status.windowEnds },
  );
}
