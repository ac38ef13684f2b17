import { and, eq, sql } from 'drizzle-orm';
import { FINAL_EXAM_CHAPTER, type QuizStatus } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { chapterCompletions, moduleCompletions, students } from '../../db/schema.ts';
import { findFirstPassingAttempt, findLatestSubmittedAttempt } from '../quiz/quiz.queries.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { queueCertificateDeliveries } from '../certificates/deliveries.service.ts';
import { type IssueContext, issueCertificate } from '../certificates/issuing.service.ts';
import type { Clock } from '../../platform/clock.ts';
import { schoolEvents } from '../../platform/metrics.ts';
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
 * Before a quiz is drawn (spec 4, decision 008), from the student's progress (decision 019: the
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
  // One trip, prepared once (decision 029: a student's most frequent call): written only
  // while the chapter is open. Nothing written is a repeat or a chapter not open yet; the check tells which.
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
 * A pass's chapter, complete through the attempt that earned it (spec 4); a repeat changes
 * nothing. A step of the grading transaction (decision 052), and of chapterComplete's repeat.
 */
export async function recordChapterCompletion(
  tx: Db,
  clock: Clock,
  pass: { studentId: number; chapterId: number; attemptId: number },
): Promise<void> {
  // Prepared once: every chapter pass of every student writes it.
  await prepareOnce(tx, 'record_chapter_completion', (database) =>
    database
      .insert(chapterCompletions)
      .values({
        studentId: sql.placeholder('studentId'),
        chapterId: sql.placeholder('chapterId'),
        attemptId: sql.placeholder('attemptId'),
        completedAt: sql.placeholder('at'),
      })
      .onConflictDoNothing()
      .prepare('record_chapter_completion'),
  ).execute({ ...pass, at: clock.now() });
}

/**
 * Spec 4, the final passed: the course complete, its certificate issued, the certificate's emails
 * queued, in the caller's transaction (the grading one, decision 052). The completion's update
 * holds the student's row until that transaction ends, so the enrolment's completion certificate
 * is issued once however many completions land at once: a later one keeps the first moment and
 * the certificate already issued, and queues nothing. Answers whether it issued the certificate.
 */
export async function completeCourseWithCertificate(
  tx: Db,
  context: IssueContext,
  studentId: number,
): Promise<boolean> {
  await markCourseComplete(tx, context.clock, studentId);
  const certificate = await issueCertificate(tx, context, { studentId, source: 'completion' });
  if (certificate.created) await queueCertificateDeliveries(tx, context.clock, certificate);
  return certificate.created;
}

/** The course's completion moment, set once: a second completion keeps the first (and locks the student's row). */
async function markCourseComplete(tx: Db, clock: Clock, studentId: number): Promise<void> {
  await tx
    .update(students)
    .set({ completedAt: sql`coalesce(${students.completedAt}, ${clock.now().toISOString()}::timestamptz)` })
    .where(eq(students.id, studentId));
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
  const issued = await db.transaction(async (tx) => {
    await recordChapterCompletion(tx, context.clock, { ...input, attemptId: passing.id });
    return (
      input.chapterId === FINAL_EXAM_CHAPTER && (await completeCourseWithCertificate(tx, context, input.studentId))
    );
  });
  // Counted once the transaction has committed (decision 060).
  if (issued) schoolEvents.certificatesIssued.inc();
}
