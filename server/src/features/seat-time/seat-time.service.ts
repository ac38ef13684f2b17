import { asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { type AdminStudent, FINAL_EXAM_CHAPTER, type RulesProfile, type SeatTimeStatus } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { chapters, seatTimeLedger } from '../../db/schema.ts';
import { timestampOrNull } from '../../db/subquery-columns.ts';
import { type Clock, localDate } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { getCourseContent } from '../../db/course-content.ts';
import { getStudentProfile, type StudentProfile } from '../rules/rules.service.ts';

/**
 * Seat time (decision 012). The module page sends a heartbeat about every
 * HEARTBEAT_SECONDS while the student is active; the server credits the time since the student's
 * previous heartbeat (its own clock, never the browser's) to an append-only ledger. Totals per
 * module, chapter and course are sums of the ledger, so they survive sign-out and device changes.
 */
export const HEARTBEAT_SECONDS = 30;

/**
 * Heartbeats closer than this to the student's previous one are answered but not written: they
 * could only credit a second or two, and a page (or a script) sending them in a loop would
 * otherwise fill the ledger. The time is not lost: the next written heartbeat credits the whole
 * gap since the last written one.
 */
export const MIN_HEARTBEAT_GAP_SECONDS = 5;

export interface SeatTimeContext {
  clock: Clock;
  config: Config;
}

export type SeatTimeRules = RulesProfile['seatTime'];

/** A profile asks for seat time when any of its minimums is above zero (the default's are all 0). */
export function requiresSeatTime(rules: SeatTimeRules): boolean {
  return rules.minutesPerModule > 0 || rules.minutesPerChapter > 0 || rules.minutesBeforeFinal > 0;
}

/**
 * Seconds credited for a heartbeat: the whole seconds since the previous one (whole seconds of the
 * clock, so consecutive credits add up to the time between the first and the last heartbeat), or
 * nothing when there was no previous one (the first only starts the clock) or the gap is longer
 * than the idle cut-off (the student was away). The daily cap is applied afterwards.
 */
export function creditForGap(previous: Date | undefined, now: Date, idleCutoffMinutes: number): number {
  if (!previous) return 0;
  const gap = Math.floor(now.getTime() / 1000) - Math.floor(previous.getTime() / 1000);
  if (gap <= 0 || gap > idleCutoffMinutes * 60) return 0;
  return gap;
}

export interface LedgerTotals {
  module: number;
  chapter: number;
  course: number;
  today: number;
}

/** One query: the student's counted seconds in a module, a chapter, the whole course, and on a school day. */
async function sumLedger(
  db: Db,
  input: { studentId: number; moduleId: number | null; chapterId: number | null; schoolDay: string | null },
): Promise<LedgerTotals> {
  const sumWhere = (condition: SQL | null) =>
    condition
      ? sql<number>`coalesce(sum(${seatTimeLedger.creditedSeconds}) filter (where ${condition}), 0)`.mapWith(Number)
      : sql<number>`0`.mapWith(Number);
  const [row] = await db
    .select({
      module: sumWhere(input.moduleId === null ? null : eq(seatTimeLedger.moduleId, input.moduleId)),
      chapter: sumWhere(input.chapterId === null ? null : eq(seatTimeLedger.chapterId, input.chapterId)),
      course: sql<number>`coalesce(sum(${seatTimeLedger.creditedSeconds}), 0)`.mapWith(Number),
      today: sumWhere(input.schoolDay === null ? null : eq(seatTimeLedger.schoolDay, input.schoolDay)),
    })
    .from(seatTimeLedger)
    .where(eq(seatTimeLedger.studentId, input.studentId));
  return row ?? { module: 0, chapter: 0, course: 0, today: 0 };
}

function total(requiredSeconds: number, countedSeconds: number) {
  return { requiredSeconds, countedSeconds, remainingSeconds: Math.max(0, requiredSeconds - countedSeconds) };
}

export function buildStatus(
  rules: SeatTimeRules,
  scope: { moduleId: number | null; chapterId: number | null },
  totals: LedgerTotals,
): SeatTimeStatus {
  return {
    required: requiresSeatTime(rules),
    module:
      scope.moduleId === null
        ? null
        : { moduleId: scope.moduleId, ...total(rules.minutesPerModule * 60, totals.module) },
    chapter:
      scope.chapterId === null
        ? null
        : { chapterId: scope.chapterId, ...total(rules.minutesPerChapter * 60, totals.chapter) },
    course: total(rules.minutesBeforeFinal * 60, totals.course),
    todayCountedSeconds: totals.today,
    dailyCapSeconds: rules.dailyCapMinutes === null ? null : rules.dailyCapMinutes * 60,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    // heartbeat.service.ts fills this from the identity checks (decision 012), which depend on this file.
    identityCheckDue: false,
  };
}

export const NOTHING_COUNTED: LedgerTotals = { module: 0, chapter: 0, course: 0, today: 0 };

export async function chapterOfModule(db: Db, moduleId: number): Promise<number> {
  const module = (await getCourseContent(db)).moduleById.get(moduleId);
  if (!module) throw notFound('No such module.');
  return module.chapterId;
}

/**
 * The time counted and still required for a module (and its chapter), or a chapter, and the
 * course. Under a profile with no minimums nothing is counted or read: required is false.
 */
export async function getSeatTimeStatus(
  db: Db,
  context: SeatTimeContext,
  input: {
    studentId: number;
    profile: StudentProfile;
    moduleId?: number | undefined;
    chapterId?: number | undefined;
  },
): Promise<SeatTimeStatus> {
  const { rules } = input.profile;
  const moduleId = input.moduleId ?? null;
  const chapterId = moduleId === null ? (input.chapterId ?? null) : await chapterOfModule(db, moduleId);
  if (!requiresSeatTime(rules.seatTime)) return buildStatus(rules.seatTime, { moduleId, chapterId }, NOTHING_COUNTED);
  const schoolDay = localDate(context.clock.now(), context.config.schoolTimeZone);
  const totals = await sumLedger(db, { studentId: input.studentId, moduleId, chapterId, schoolDay });
  return buildStatus(rules.seatTime, { moduleId, chapterId }, totals);
}

/**
 * What a heartbeat credits (decision 012), given the student's previous heartbeat and their totals
 * before it: null when it comes under MIN_HEARTBEAT_GAP_SECONDS after the previous one (answered,
 * not written); else the seconds since the previous heartbeat when within the idle cut-off, and
 * within what is left of the school day's cap.
 */
export function creditForHeartbeat(
  seatTime: SeatTimeRules,
  previous: Date | undefined,
  now: Date,
  before: LedgerTotals,
): number | null {
  if (previous && now.getTime() - previous.getTime() < MIN_HEARTBEAT_GAP_SECONDS * 1000) return null;
  const credited = creditForGap(previous, now, seatTime.idleCutoffMinutes);
  if (seatTime.dailyCapMinutes === null) return credited;
  return Math.min(credited, Math.max(0, seatTime.dailyCapMinutes * 60 - before.today));
}

/** The totals after a heartbeat credited these seconds. */
export function addCredit(totals: LedgerTotals, credited: number): LedgerTotals {
  return {
    module: totals.module + credited,
    chapter: totals.chapter + credited,
    course: totals.course + credited,
    today: totals.today + credited,
  };
}

export type SeatTimeScope =
  { kind: 'module'; moduleId: number } | { kind: 'chapter'; chapterId: number } | { kind: 'course' };

const WHERE_TEXT: Record<SeatTimeScope['kind'], string> = {
  module: 'in this module before continuing',
  chapter: "in this chapter's modules before its quiz",
  course: 'in the course before the final exam',
};

/** The minutes a profile asks before Mark Complete (a module), a chapter's quiz or the final. */
export function seatTimeMinutes(rules: SeatTimeRules, scope: SeatTimeScope): number {
  return scope.kind === 'module'
    ? rules.minutesPerModule
    : scope.kind === 'chapter'
      ? rules.minutesPerChapter
      : rules.minutesBeforeFinal;
}

/**
 * Mark Complete, a chapter's quiz and the final wait for the profile's minimum time (409
 * SEAT_TIME_REQUIRED with the seconds still required). Under a minimum of 0 nothing is read
 * beyond the student's profile.
 */
export async function assertSeatTimeMet(
  db: Db,
  { studentId, profile, scope }: { studentId: number; profile: StudentProfile; scope: SeatTimeScope },
): Promise<void> {
  const minutes = seatTimeMinutes(profile.rules.seatTime, scope);
  if (minutes === 0) return;
  const moduleId = scope.kind === 'module' ? scope.moduleId : null;
  const chapterId = scope.kind === 'chapter' ? scope.chapterId : null;
  const totals = await sumLedger(db, { studentId, moduleId, chapterId, schoolDay: null });
  const counted = scope.kind === 'module' ? totals.module : scope.kind === 'chapter' ? totals.chapter : totals.course;
  const { requiredSeconds, countedSeconds, remainingSeconds } = total(minutes * 60, counted);
  if (remainingSeconds === 0) return;
  const remainingMinutes = Math.ceil(remainingSeconds / 60);
  throw new AppError(
    'SEAT_TIME_REQUIRED',
    `Please spend at least ${String(remainingMinutes)} more ${remainingMinutes === 1 ? 'minute' : 'minutes'} ${WHERE_TEXT[scope.kind]}.`,
    { scope: scope.kind, requiredSeconds, countedSeconds, remainingSeconds },
  );
}

/**
 * For the admin's student detail: the time counted per chapter and in all, against the
 * profile's minimums, with the first and last moment counted. null under a profile without
 * minimums when nothing was counted (every student of the default profile).
 */
export async function getAdminSeatTime(db: Db, studentId: number): Promise<AdminStudent['seat_time']> {
  const { seatTime } = (await getStudentProfile(db, studentId)).rules;
  const rows = await db
    .select({
      chapterId: chapters.id,
      counted: sql<number>`coalesce(sum(${seatTimeLedger.creditedSeconds}), 0)`.mapWith(Number),
      first: sql<Date | null>`min(${seatTimeLedger.heartbeatAt})`.mapWith(timestampOrNull),
      last: sql<Date | null>`max(${seatTimeLedger.heartbeatAt})`.mapWith(timestampOrNull),
    })
    .from(chapters)
    .leftJoin(
      seatTimeLedger,
      sql`${seatTimeLedger.chapterId} = ${chapters.id} and ${seatTimeLedger.studentId} = ${studentId}`,
    )
    // The final exam has a chapter row but no modules: no time is studied there.
    .where(ne(chapters.id, FINAL_EXAM_CHAPTER))
    .groupBy(chapters.id)
    .orderBy(asc(chapters.id));
  const counted = rows.reduce((sum, row) => sum + row.counted, 0);
  if (!requiresSeatTime(seatTime) && counted === 0) return null;
  const moments = rows.flatMap((row) => [row.first, row.last]).filter((moment): moment is Date => moment !== null);
  const times = moments.map((moment) => moment.getTime());
  return {
    chapters: rows.map((row) => ({
      chapter_id: row.chapterId,
      counted_seconds: row.counted,
      required_seconds: seatTime.minutesPerChapter * 60,
    })),
    counted_seconds: counted,
    required_seconds: seatTime.minutesBeforeFinal * 60,
    first_activity_at: times.length ? new Date(Math.min(...times)).toISOString() : null,
    last_activity_at: times.length ? new Date(Math.max(...times)).toISOString() : null,
  };
}
