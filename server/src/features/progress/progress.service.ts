import { and, eq, type SQL, sql } from 'drizzle-orm';
import { FINAL_EXAM_CHAPTER, type QuizStatus } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { chapterCompletions, moduleCompletions, students } from '../../db/schema.ts';
import { findFirstPassingAttempt, findLatestSubmittedAttempt } from '../quiz/quiz.queries.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import {
  type CertificateHolder,
  certificateIssueSteps,
  type IssueContext,
  readCertificateHolder,
} from '../certificates/issuing.service.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { COMMIT_UNWAITED } from '../../db/unwaited-commit.ts';
import { assertCourseOpen } from '../rules/course-gate.ts';
import { assertSeatTimeMet, seatTimeMinutes } from '../seat-time/seat-time.service.ts';
import { getCourseContent, isModuleServed, modulesOfChapter } from '../../db/course-content.ts';
import {
  assertChapterOpen,
  assertChapterOpenGiven,
  chapterOpenCondition,
  prerequisiteChapters,
} from './chapter-order.ts';
import { getStudentProgress } from './progress.queries.ts';

export async function assertChapterExists(db: Db, chapterId: number): Promise<void> {
  const content = await getCourseContent(db);
  if (!content.chapters.some((chapter) => chapter.id === chapterId)) throw notFound('No such chapter.');
}

/**
 * Before a quiz is drawn (spec 4, decision 008), from the student's progress (issue 15: the
 * instance's copy while it is fresh, otherwise one read): refused once the chapter is complete,
 * while an earlier chapter is not, and until every module of the chapter is marked complete.
 */
export async function assertQuizOpen(
  db: Db,
  /** `edition`: the student's state edition, whose modules the chapter also holds (decision 051). */
  student: { studentId: number; progressVersion: number; edition: string | null },
  chapterId: number,
): Promise<void> {
  const progress = await getStudentProgress(db, student);
  if (progress.chapterIds.includes(chapterId)) {
    throw new AppError('ALREADY_COMPLETE', 'You have already completed this quiz.', { chapter: chapterId });
  }
  assertChapterOpenGiven(progress.chapterIds, chapterId);
  if (chapterId === FINAL_EXAM_CHAPTER) return;
  const content = await getCourseContent(db);
  const moduleIds = modulesOfChapter(content, chapterId, student.edition).map((module) => module.id);
  if (!moduleIds.every((id) => progress.moduleIds.has(id))) {
    throw new AppError('MODULES_INCOMPLETE', 'Please complete every module of this chapter before its quiz.');
  }
}

/**
 * Spec 4: Mark Complete. Idempotent; refused while the course gate holds the student (decision
 * 012) and for a module of a chapter that is not open yet.
 */
export async function completeModule(
  db: Db,
  context: IssueContext,
  input: { studentId: number; profile: ProfileRef; moduleId: number },
): Promise<void> {
  const profile = await assertCourseOpen(db, context, input);
  const module = (await getCourseContent(db)).moduleById.get(input.moduleId);
  // Another state's edition module is not this student's course (decision 051).
  if (!module || !isModuleServed(module, profile.rules.edition)) throw notFound('No such module.');
  const scope = { kind: 'module', moduleId: input.moduleId } as const;
  // Under a profile that asks time per module, a chapter not open yet is told before the time owed.
  if (seatTimeMinutes(profile.rules.seatTime, scope) > 0)
    await assertChapterOpen(db, input.studentId, module.chapterId);
  await assertSeatTimeMet(db, { studentId: input.studentId, profile, scope });
  // One trip, prepared once (issue 15: 17 of a student's 44 calls): written only while the
  // chapter is open. Nothing written is a repeat or a chapter not open yet; the check tells which.
  // A completion is redone with one click, so its commit does not wait for the disk (decision 035).
  const written = await prepareOnce(db, 'complete_module', (database) =>
    database
      .insert(moduleCompletions)
      .select(
        sql`select ${sql.placeholder('studentId')}::int, ${sql.placeholder('moduleId')}::int, ${sql.placeholder('at')}::timestamptz
          where ${chapterOpenCondition(sql`${sql.placeholder('studentId')}::int`, sql`${sql.placeholder('needed')}`)}
            and ${COMMIT_UNWAITED}`,
      )
      .onConflictDoNothing()
      .returning({ moduleId: moduleCompletions.moduleId })
      .prepare('complete_module'),
  ).execute({
    studentId: input.studentId,
    moduleId: input.moduleId,
    at: context.clock.now().toISOString(),
    needed: JSON.stringify(prerequisiteChapters(module.chapterId)),
  });
  if (written.length === 0) await assertChapterOpen(db, input.studentId, module.chapterId);
}

/** Spec 4: the quiz step is complete only when the chapter is complete and the status is PASS. */
export async function getQuizStatus(db: Db, input: { studentId: number; chapterId: number }): Promise<QuizStatus> {
  const [completion] = await db
    .select({ chapterId: chapterCompletions.chapterId })
    .from(chapterCompletions)
    .where(and(eq(chapterCompletions.studentId, input.studentId), eq(chapterCompletions.chapterId, input.chapterId)));
  const latest = await findLatestSubmittedAttempt(db, input);
  const complete = completion !== undefined;
  return { complete, status: complete ? 'PASS' : latest ? (latest.passed ? 'PASS' : 'FAIL') : null };
}

/**
 * What a pass adds to the statement that grades it (the quiz's saveGradedAttempt, issue 15: each
 * statement is a round trip): the chapter's completion through the attempt in `graded` (a step
 * of that statement answering the graded attempt's id, none when the attempt was already
 * submitted), and for the final (`certificate`: the student as read for it) the course's
 * completion and its certificate, issued once. Either all of it happens with the grade or none.
 */
export async function chapterPassSteps(
  db: Db,
  context: IssueContext,
  input: { studentId: number; chapterId: number; profile?: ProfileRef | undefined },
): Promise<SQL[]> {
  const now = context.clock.now().toISOString();
  const steps = [
    sql`completed as (
      insert into ${chapterCompletions} (student_id, chapter_id, attempt_id, ${sql.identifier(chapterCompletions.completedAt.name)})
      select ${input.studentId}::int, ${input.chapterId}::int, graded.id, ${now}::timestamptz from graded
      on conflict do nothing
    )`,
  ];
  if (input.chapterId !== FINAL_EXAM_CHAPTER || !input.profile) return steps;
  const holder = { studentId: input.studentId, profile: input.profile };
  return [...steps, ...(await courseCompletionSteps(db, context, holder, sql`select 1 from graded`))];
}

/**
 * Spec 4: the course's completion and its certificate, as steps of one statement, for the rows of
 * `gate` (one row to complete, none not to). `completed_at` is set once: a second completion keeps
 * the first moment, and the certificate its date; the enrolment's completion certificate is issued
 * once (certificateIssueSteps), dated the day of the first completion in the school's zone.
 */
async function courseCompletionSteps(
  db: Db,
  context: IssueContext,
  holder: CertificateHolder,
  gate: SQL,
): Promise<SQL[]> {
  const now = context.clock.now();
  const { studentId } = holder;
  return [
    sql`finished as (
      update ${students} set completed_at = coalesce(completed_at, ${now.toISOString()}::timestamptz)
      from (${gate}) as gate where ${students.id} = ${studentId}::int
      returning 1
    )`,
    await certificateIssueSteps(
      db,
      context,
      holder.profile,
      { studentId, source: 'completion', email: true },
      sql`select 1 from finished`,
    ),
  ];
}

/**
 * Records a chapter as complete through the passing attempt that earned it; a final-exam pass
 * completes the course (the same steps a graded pass runs). Idempotent.
 */
export async function recordChapterPass(
  db: Db,
  context: IssueContext,
  input: { studentId: number; chapterId: number; attemptId: number },
): Promise<void> {
  const holder = input.chapterId === FINAL_EXAM_CHAPTER ? await readCertificateHolder(db, input.studentId) : undefined;
  const steps = await chapterPassSteps(db, context, { ...input, profile: holder?.profile });
  await selectRawRows(
    db,
    sql`with graded as (select ${input.attemptId}::int as id), ${sql.join(steps, sql`, `)} select 1`,
  );
}

/**
 * Spec 4: completes the course and issues its certificate in one statement: either both happen
 * or neither, and the certificate is issued once for the completion.
 */
export async function completeCourse(db: Db, context: IssueContext, studentId: number): Promise<void> {
  const holder = await readCertificateHolder(db, studentId);
  if (!holder) throw notFound('No such student.');
  const steps = await courseCompletionSteps(db, context, holder, sql`select 1`);
  await selectRawRows(db, sql`with ${sql.join(steps, sql`, `)} select 1`);
}

/**
 * Spec 7 chapterComplete ("a pass posts chapter completion"). Idempotent, and refused for a
 * chapter without a passing attempt of its quiz.
 *
 * Not behind the course gate, on purpose: grading (which is gated) already recorded the chapter
 * in the pass's own transaction, so this call only repeats it. Gating it would refuse the page's
 * repeat when the window closes or an identity check is asked between the grade and the repeat,
 * for a completion that stands anyway.
 */
export async function completeChapter(
  db: Db,
  context: IssueContext,
  input: { studentId: number; chapterId: number },
): Promise<void> {
  await assertChapterExists(db, input.chapterId);
  const passing = await findFirstPassingAttempt(db, input);
  if (!passing) {
    throw new AppError('QUIZ_NOT_PASSED', 'A chapter is complete only after its quiz is passed.');
  }
  await db.transaction(async (tx) => {
    await recordChapterPass(tx, context, { ...input, attemptId: passing.id });
  });
}
