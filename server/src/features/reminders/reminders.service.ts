import { and, asc, between, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { COURSE_CHAPTERS } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { OUTER_STUDENT_ID } from '../../db/subquery-columns.ts';
import { chapters, students } from '../../db/schema.ts';
import { type Clock, localDate } from '../../platform/clock.ts';
import { schoolDetails } from '../../platform/email-templates/email.ts';
import { deadlineReminderEmail } from '../../platform/email-templates/reminder-emails.tsx';
import { type PeriodicJob, startPeriodicJob } from '../../platform/periodic-job.ts';
import { queueEmail } from '../emails/email-outbox.service.ts';
import { completedChapterIdsColumn } from '../progress/chapter-order.ts';
import { addDays, completionStatusOn } from '../rules/completion.service.ts';
import { windowExtensionDaysColumn } from '../rules/exceptions.queries.ts';
import { getRulesProfile } from '../rules/rules.service.ts';
import { sumCreditedSeconds } from '../seat-time/seat-time.queries.ts';
import { requiresSeatTime } from '../seat-time/seat-time.service.ts';
import { type DueReminder, REMINDER_THRESHOLDS, reminderKey, remindersDueOn } from './reminder-schedule.ts';

/**
 * Reminders before the court's due date and the end of the completion window (decision 059):
 * every instance looks for the reminders due at start and every hour, and queues each in the
 * email outbox under its own key, so one queued twice (two instances, a restart) is queued once.
 */

/** How often an instance looks: a day's reminders go out within the hour after the school's midnight. */
export const REMINDER_ROUND_MS = 3600_000;

export interface ReminderContext {
  clock: Clock;
  config: Config;
}

/**
 * An enrolment that may be reminded: active (not archived), paid (an unpaid registration has no
 * course to continue yet, decision 059), not finished, and not turned off by the student.
 */
const remindable = and(
  isNull(students.archivedAt),
  isNotNull(students.paymentAt),
  isNull(students.completedAt),
  eq(students.remindersOff, false),
);

/** The rules profile versions that remindable students are pinned to and that have a window, with its days. */
async function listWindowedProfiles(db: Db): Promise<{ id: string; version: number; windowDays: number }[]> {
  const pinned = await db
    .selectDistinct({ id: students.rulesProfileId, version: students.rulesProfileVersion })
    .from(students)
    .where(remindable);
  const windowed = [];
  for (const ref of pinned) {
    const { windowDays } = (await getRulesProfile(db, ref.id, ref.version)).completion;
    if (windowDays !== null) windowed.push({ ...ref, windowDays });
  }
  return windowed;
}

/**
 * The students a reminder may be due to today: a court due date within the largest threshold, or
 * a window (with the days staff added) that has not ended over two days ago. The schedule then
 * decides exactly; this only keeps the read small.
 */
async function listCandidates(db: Db, context: ReminderContext, today: string) {
  const now = context.clock.now();
  const windowed = await listWindowedProfiles(db);
  const windowClauses: SQL[] = windowed.map(
    (profile) =>
      sql`(${students.rulesProfileId} = ${profile.id} and ${students.rulesProfileVersion} = ${profile.version}
        and ${students.createdAt} >= ${new Date(now.getTime() - (profile.windowDays + 2) * 86_400_000).toISOString()}::timestamptz
          - make_interval(days => ${windowExtensionDaysColumn}))`,
  );
  return db
    .select({
      id: students.id,
      firstName: students.firstName,
      email: students.email,
      language: students.language,
      createdAt: students.createdAt,
      courtDueDate: students.courtDueDate,
      rulesProfileId: students.rulesProfileId,
      rulesProfileVersion: students.rulesProfileVersion,
      extensionDays: windowExtensionDaysColumn,
      completedChapterIds: completedChapterIdsColumn(OUTER_STUDENT_ID),
    })
    .from(students)
    .where(
      and(
        remindable,
        or(between(students.courtDueDate, addDays(today, 1), addDays(today, REMINDER_THRESHOLDS[0])), ...windowClauses),
      ),
    )
    .orderBy(asc(students.id));
}

type Candidate = Awaited<ReturnType<typeof listCandidates>>[number];

/** The course's chapter titles in both languages, read once a round. */
async function readChapterTitles(db: Db): Promise<Map<number, { en: string; es: string }>> {
  const rows = await db
    .select({ id: chapters.id, title: chapters.title, titleEs: chapters.titleEs })
    .from(chapters)
    .where(inArray(chapters.id, [...COURSE_CHAPTERS]));
  return new Map(rows.map((row) => [row.id, { en: row.title, es: row.titleEs ?? row.title }]));
}

/** Minutes of study the student's profile still asks for before the final, or null when it counts none. */
async function minutesLeftOf(db: Db, candidate: Candidate): Promise<number | null> {
  const { seatTime } = await getRulesProfile(db, candidate.rulesProfileId, candidate.rulesProfileVersion);
  if (!requiresSeatTime(seatTime)) return null;
  const counted = await sumCreditedSeconds(db, candidate.id);
  return Math.ceil(Math.max(0, seatTime.minutesBeforeFinal * 60 - counted) / 60);
}

/** Queues one reminder: false when its key was queued before (by this instance or another). */
async function queueReminder(
  db: Db,
  context: ReminderContext,
  input: { candidate: Candidate; reminder: DueReminder; titles: Map<number, { en: string; es: string }> },
): Promise<boolean> {
  const { candidate, reminder, titles } = input;
  const done = new Set(candidate.completedChapterIds);
  const chaptersLeft = COURSE_CHAPTERS.filter((chapter) => !done.has(chapter));
  const language = candidate.language;
  const email = await deadlineReminderEmail(
    {
      school: schoolDetails(context.config),
      firstName: candidate.firstName,
      kind: reminder.kind,
      date: reminder.date,
      daysLeft: reminder.daysLeft,
      windowEndsTheSameDay: reminder.windowEndsTheSameDay,
      chaptersLeft: chaptersLeft.map((number) => ({ number, title: titles.get(number)?.[language] ?? '' })),
      finalLeft: true,
      minutesLeft: await minutesLeftOf(db, candidate),
      // Spec 4: the next chapter not passed, or the final once chapters 1-4 are.
      continuePath: chaptersLeft[0] === undefined ? '/final' : `/content/${String(chaptersLeft[0])}`,
    },
    language,
  );
  return queueEmail(db, {
    key: reminderKey(candidate.id, reminder),
    to: candidate.email,
    language,
    studentId: candidate.id,
    ...email,
  });
}

/**
 * One round: queues every reminder due today (the school's calendar day) that was not queued
 * before. Answers how many it queued.
 */
export async function queueDueReminders(db: Db, context: ReminderContext): Promise<number> {
  const zone = context.config.schoolTimeZone;
  const today = localDate(context.clock.now(), zone);
  const candidates = await listCandidates(db, context, today);
  let titles: Map<number, { en: string; es: string }> | undefined;
  let queued = 0;
  for (const candidate of candidates) {
    const profile = await getRulesProfile(db, candidate.rulesProfileId, candidate.rulesProfileVersion);
    const registeredOn = localDate(candidate.createdAt, zone);
    const status = completionStatusOn(profile.completion, {
      registeredOn,
      courtDueDate: candidate.courtDueDate,
      today,
      extensionDays: Number(candidate.extensionDays),
    });
    // A closed window ends the course: nothing is left to remind of (decision 012).
    if (status.closed) continue;
    const due = remindersDueOn({
      registeredOn,
      today,
      courtDueDate: candidate.courtDueDate,
      windowEnds: status.windowEnds,
    });
    for (const reminder of due) {
      titles ??= await readChapterTitles(db);
      if (await queueReminder(db, context, { candidate, reminder, titles })) queued += 1;
    }
  }
  return queued;
}

/** Looks for due reminders at start and then every hour, until the server closes. */
export function startReminderJob(
  db: Db,
  context: ReminderContext,
  log: { info: (object: object, message: string) => void; error: (object: object, message: string) => void },
  intervalMs = REMINDER_ROUND_MS,
): PeriodicJob {
  return startPeriodicJob(
    async () => {
      const queued = await queueDueReminders(db, context);
      if (queued > 0) log.info({ queued }, 'deadline reminders queued');
    },
    intervalMs,
    (error) => {
      log.error({ error: error instanceof Error ? error.message : String(error) }, 'deadline reminder round failed');
    },
  );
}
