import type { ReminderKind } from '../../platform/email-templates/reminder-emails.tsx';
import { addDays } from '../rules/completion.service.ts';

/**
 * Which reminders are due (decision 059), on plain values: the pure rule the job applies to every
 * candidate. Dates are calendar days (YYYY-MM-DD) of the school's time zone.
 */

/** Days before a date a reminder goes out, largest first: a week ahead, and again two days ahead. */
export const REMINDER_THRESHOLDS = [7, 2] as const;
export type ReminderThreshold = (typeof REMINDER_THRESHOLDS)[number];

export interface DueReminder {
  kind: ReminderKind;
  threshold: ReminderThreshold;
  date: string;
  daysLeft: number;
  /** A court's due date that is also the window's last day (one reminder says both). */
  windowEndsTheSameDay: boolean;
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (calendar days). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * A threshold's reminder is due while the days left are at most the threshold and more than the
 * next smaller one (so a round that did not run on the day itself, a restart or an outage, still
 * sends it the day after), and only to a student who had registered before the threshold's day:
 * a student who registers 3 days before the date gets the 2-day reminder, never a late 7-day one.
 * Nothing is due on the date itself or after it.
 */
function dueThreshold(input: { registeredOn: string; today: string; date: string }): ReminderThreshold | null {
  const daysLeft = daysBetween(input.today, input.date);
  for (const [index, threshold] of REMINDER_THRESHOLDS.entries()) {
    const floor = REMINDER_THRESHOLDS[index + 1] ?? 0;
    if (daysLeft <= threshold && daysLeft > floor) {
      return input.registeredOn < addDays(input.date, -threshold) ? threshold : null;
    }
  }
  return null;
}

/**
 * The reminders due today for one student: of the court's due date and of the window's last day,
 * each on its own (a court may set a date before or after the window ends). When both fall on the
 * same day, one reminder (the court's) says both.
 */
export function remindersDueOn(input: {
  registeredOn: string;
  today: string;
  courtDueDate: string | null;
  windowEnds: string | null;
}): DueReminder[] {
  const dates: { kind: ReminderKind; date: string }[] = [];
  if (input.courtDueDate !== null) dates.push({ kind: 'court', date: input.courtDueDate });
  if (input.windowEnds !== null && input.windowEnds !== input.courtDueDate) {
    dates.push({ kind: 'window', date: input.windowEnds });
  }
  return dates.flatMap(({ kind, date }) => {
    const threshold = dueThreshold({ registeredOn: input.registeredOn, today: input.today, date });
    if (threshold === null) return [];
    return [
      {
        kind,
        threshold,
        date,
        daysLeft: daysBetween(input.today, date),
        windowEndsTheSameDay: kind === 'court' && input.windowEnds === date,
      },
    ];
  });
}

/** The outbox key of a reminder: once per student, kind, threshold and date (decision 059). */
export function reminderKey(studentId: number, reminder: Pick<DueReminder, 'kind' | 'threshold' | 'date'>): string {
  return `reminder:${String(studentId)}:${reminder.kind}:${String(reminder.threshold)}:${reminder.date}`;
}
