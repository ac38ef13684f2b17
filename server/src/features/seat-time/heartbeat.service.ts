import { eq, sql } from 'drizzle-orm';
import type { SeatTimeStatus } from '@ts/contract';
import { type Db, runsOnPglite } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { OUTER_STUDENT_ID, parseJsonColumn } from '../../db/subquery-columns.ts';
import { seatTimeLedger, students } from '../../db/schema.ts';
import { localDate } from '../../platform/clock.ts';
import { notFound } from '../../plugins/errors.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { hasIdentityHold } from '../identity-checks/identity-checks.service.ts';
import { identityHoldFrom, type IdentitySnapshot, identitySnapshotColumns } from '../identity-checks/identity-hold.ts';
import { assertChapterOpenGiven, completedChapterIdsColumn } from '../progress/chapter-order.ts';
import { getPinnedProfile, type StudentProfile } from '../rules/rules.service.ts';
import {
  addCredit,
  buildStatus,
  chapterOfModule,
  creditForHeartbeat,
  getSeatTimeStatus,
  type LedgerTotals,
  NOTHING_COUNTED,
  requiresSeatTime,
  type SeatTimeContext,
} from './seat-time.service.ts';
import { lockStudentRow } from '../../db/student-lock.ts';

// What the module page is told (decision 012): its seat time, and whether an identity check holds
// the course, so the page asks for it at once. Composed here, apart from seat-time.service.ts,
// because the identity checks depend on seat time: asking them there would be an import cycle.
//
// The heartbeat is the busiest call of a timed course (decision 019). One prepared read
// brings all it needs: the chapters done (is this chapter open), the previous heartbeat and the
// ledger's sums, whether the course is completed, and the identity questions and lock. A beat
// under MIN_HEARTBEAT_GAP_SECONDS after the previous one is answered from that read alone; any
// other locks the student's row (two tabs cannot count the same time twice), reads again and
// appends to the ledger: one short transaction.

interface BeatRead extends LedgerTotals {
  courseCompleted: boolean;
  completedChapterIds: number[];
  previousHeartbeatAt: Date | undefined;
  identity: IdentitySnapshot;
}

/** The ledger's newest heartbeat and sums in one scan, as a json array (a scalar subquery holds one column). */
function ledgerColumn() {
  const sumWhere = (condition: ReturnType<typeof sql>) =>
    sql`coalesce(sum(${seatTimeLedger.creditedSeconds}) filter (where ${condition}), 0)`;
  return sql<[string | null, number, number, number, number]>`(
    select json_build_array(
      max(${seatTimeLedger.heartbeatAt}),
      ${sumWhere(sql`${seatTimeLedger.moduleId} = ${sql.placeholder('moduleId')}`)},
      ${sumWhere(sql`${seatTimeLedger.chapterId} = ${sql.placeholder('chapterId')}`)},
      coalesce(sum(${seatTimeLedger.creditedSeconds}), 0),
      ${sumWhere(sql`${seatTimeLedger.schoolDay} = ${sql.placeholder('schoolDay')}::date`)})
    from ${seatTimeLedger} where ${seatTimeLedger.studentId} = ${OUTER_STUDENT_ID})`.mapWith(
    (value: unknown) => parseJsonColumn(value) as [string | null, number, number, number, number],
  );
}

function buildBeatRead(db: Db) {
  return db
    .select({
      completedAt: students.completedAt,
      completedChapterIds: completedChapterIdsColumn(OUTER_STUDENT_ID),
      ledger: ledgerColumn(),
      ...identitySnapshotColumns(OUTER_STUDENT_ID, sql`${sql.placeholder('now')}::timestamptz`),
    })
    .from(students)
    .where(eq(students.id, sql.placeholder('studentId')))
    .prepare('heartbeat_read');
}

async function readBeat(
  db: Db,
  input: { studentId: number; moduleId: number; chapterId: number; schoolDay: string; now: Date },
): Promise<BeatRead> {
  const [row] = await prepareOnce(db, 'heartbeat_read', buildBeatRead).execute({
    ...input,
    now: input.now.toISOString(),
  });
  if (!row) throw notFound('No such student.');
  const [previous, module, chapter, course, today] = row.ledger;
  return {
    module: Number(module),
    chapter: Number(chapter),
    course: Number(course),
    today: Number(today),
    previousHeartbeatAt: previous === null ? undefined : new Date(previous),
    courseCompleted: row.completedAt !== null,
    completedChapterIds: row.completedChapterIds,
    identity: { questions: row.identityQuestions, locked: row.courseLocked, personalAnswers: row.personalAnswers },
  };
}

/** The page's heartbeat: counts the time, then says where the student stands. */
export async function recordStudentHeartbeat(
  db: Db,
  context: SeatTimeContext,
  input: { studentId: number; profile: ProfileRef; moduleId: number },
): Promise<SeatTimeStatus> {
  const { studentId, moduleId } = input;
  const profile = await getPinnedProfile(db, input.profile);
  const chapterId = await chapterOfModule(db, moduleId);
  const { seatTime } = profile.rules;
  const scope = { moduleId, chapterId };
  if (!requiresSeatTime(seatTime)) {
    return withIdentityHold(db, context, studentId, profile, buildStatus(seatTime, scope, NOTHING_COUNTED));
  }
  const now = context.clock.now();
  const read = { studentId, moduleId, chapterId, schoolDay: localDate(now, context.config.schoolTimeZone), now };
  const seen = await readBeat(db, read);
  // Time counts only in a chapter the student may study (chapters go in order, spec 4).
  assertChapterOpenGiven(seen.completedChapterIds, chapterId);
  const holdOf = (beat: BeatRead) =>
    identityHoldFrom(beat.identity, {
      studentId,
      profile,
      countedSeconds: beat.course,
      courseCompleted: beat.courseCompleted,
    });
  // While an identity check holds the course (one is due, waits for its answer, or ran out of
  // time, or the course is locked) the beat is written with nothing credited (decision 043): the
  // clock moves on, so the time spent under the hold is never counted later, and one answer never
  // covers time nobody proved was the student's.
  const creditOf = (beat: BeatRead): number | null => {
    const credit = creditForHeartbeat(seatTime, beat.previousHeartbeatAt, now, beat);
    return credit !== null && holdOf(beat) !== 'clear' ? 0 : credit;
  };
  let after: BeatRead = seen;
  const credit = creditOf(seen);
  if (credit !== null && runsOnPglite(db)) {
    after = await appendOnPglite(db, read, seen, credit);
  } else if (credit !== null) {
    after = await db.transaction(async (tx) => {
      // The lock first, so another tab's heartbeat that held it is read, not counted twice.
      await lockStudentRow(tx, studentId);
      const locked = await readBeat(tx, read);
      const credited = creditOf(locked);
      // Another tab's heartbeat wrote in between: this one is answered, not written.
      if (credited === null) return locked;
      await tx.insert(seatTimeLedger).values({
        studentId,
        moduleId,
        chapterId,
        heartbeatAt: now,
        creditedSeconds: credited,
        schoolDay: read.schoolDay,
      });
      return { ...locked, ...addCredit(locked, credited) };
    });
  }
  const status = buildStatus(seatTime, scope, after);
  const hold = holdOf(after);
  if (hold === 'settle') return withIdentityHold(db, context, studentId, profile, status);
  return { ...status, identityCheckDue: hold === 'hold' };
}

/**
 * PGlite runs one statement at a time on its one connection, so there a single statement is the
 * whole critical section: the heartbeat is appended only if the ledger's newest heartbeat is still
 * the one the read saw (only heartbeats write the ledger), with no lock and no transaction, whose
 * five statements each waited behind every request queued for the connection (decision 019: the
 * writing beats were PGlite's slowest). If another tab's beat came first, this one is answered
 * from a new read, not written, as on PostgreSQL.
 */
export async function appendOnPglite(
  db: Db,
  read: { studentId: number; moduleId: number; chapterId: number; schoolDay: string; now: Date },
  seen: BeatRead,
  credited: number,
): Promise<BeatRead> {
  const { studentId, moduleId, chapterId, schoolDay, now } = read;
  const appended = await selectRawRows<{ id: number }>(
    db,
    appendIfNewest({
      studentId,
      moduleId,
      chapterId,
      now: now.toISOString(),
      credited,
      schoolDay,
      previous: seen.previousHeartbeatAt?.toISOString() ?? null,
    }),
  );
  if (appended.length === 0) return readBeat(db, read);
  return { ...seen, previousHeartbeatAt: read.now, ...addCredit(seen, credited) };
}

/** A heartbeat's ledger row, written only while the ledger's newest heartbeat is still `previous`. */
function appendIfNewest(beat: {
  studentId: number;
  moduleId: number;
  chapterId: number;
  now: string;
  credited: number;
  schoolDay: string;
  previous: string | null;
}) {
  return sql`insert into ${seatTimeLedger}
      (student_id, module_id, chapter_id, heartbeat_at, credited_seconds, school_day)
    select ${beat.studentId}::int, ${beat.moduleId}::int, ${beat.chapterId}::int,
      ${beat.now}::timestamptz, ${beat.credited}::int, ${beat.schoolDay}::date
    where (select max(${seatTimeLedger.heartbeatAt}) from ${seatTimeLedger}
      where ${seatTimeLedger.studentId} = ${beat.studentId}::int) is not distinct from ${beat.previous}::timestamptz
    returning id`;
}

/** The student's seat time for a module, a chapter or the course, without counting any. */
export async function getStudentSeatTime(
  db: Db,
  context: SeatTimeContext,
  input: { studentId: number; profile: ProfileRef; moduleId?: number | undefined; chapterId?: number | undefined },
): Promise<SeatTimeStatus> {
  const profile = await getPinnedProfile(db, input.profile);
  const status = await getSeatTimeStatus(db, context, { ...input, profile });
  return withIdentityHold(db, context, input.studentId, profile, status);
}

async function withIdentityHold(
  db: Db,
  context: SeatTimeContext,
  studentId: number,
  profile: StudentProfile,
  status: SeatTimeStatus,
): Promise<SeatTimeStatus> {
  return { ...status, identityCheckDue: await hasIdentityHold(db, context.clock, studentId, profile) };
}
