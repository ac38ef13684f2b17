import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { FINAL_EXAM_CHAPTER, type Quiz, type QuizResult, type ResultQuestion } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { answers, questions, quizAttempts } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { schoolEvents } from '../../platform/metrics.ts';
import { AppError, badRequest, notFound } from '../../plugins/errors.ts';
import { type Language, pick } from '../../plugins/language.ts';
import {
  assertChapterExists,
  assertQuizOpen,
  completeCourseWithCertificate,
  recordChapterCompletion,
} from '../progress/progress.service.ts';
import type { IssueContext } from '../certificates/issuing.service.ts';
import { assertSeatTimeMet } from '../seat-time/seat-time.service.ts';
import {
  type BankQuestion,
  chapterBank,
  type CourseContent,
  finalBanks,
  getCourseContent,
} from '../../db/course-content.ts';
import { drawAcrossBanks, drawQuestions, finalExamHistory, shuffle } from './draw-questions.ts';
import { saveDrawnAttempt } from './drawn-attempts.ts';
import {
  findFreshOpenAttempt,
  findHeldAttempt,
  holdOpenAttempt,
  type OpenAttempt,
  readForDraw,
  releaseAttempt,
} from './open-attempts.ts';
import { assertAttemptAllowed, attemptsAllowedFor, hasSpecQuizRules, quizRulesFor } from './quiz-rules.ts';
import { assertCourseOpen } from '../rules/course-gate.ts';
import { createDerivedCache } from '../../platform/caches.ts';
import { getRulesProfile, type StudentProfile } from '../rules/rules.service.ts';

const alreadySubmitted = () =>
  new AppError('NO_OPEN_ATTEMPT', 'This quiz has already been submitted. Please start it again.');

/**
 * What a graded attempt keeps: what the results page showed, in the language it was shown in, as
 * it was at grading time (decision 036; results graded before it keep both languages).
 */
type StoredResult = Partial<Record<Language, ResultQuestion[]>>;

/**
 * One graded question as the results page shows it, in one language: the stored result is these,
 * written at grading and never recomputed (decision 008).
 */
export function presentResultQuestion(
  language: Language,
  question: typeof questions.$inferSelect,
  choices: (typeof answers.$inferSelect)[],
  selected: number | undefined,
): ResultQuestion {
  return {
    id: question.id,
    question: pick(language, question.question, question.questionEs),
    explanation: question.explanation ? pick(language, question.explanation, question.explanationEs) : null,
    answers: choices.map((answer) => ({
      id: answer.id,
      content: pick(language, answer.content, answer.contentEs),
      correct: answer.isCorrect,
      selected: answer.id === selected,
    })),
  };
}

/**
 * The drawn questions with their answers, in the order the attempt drew them, each question's
 * answers in the order the attempt shows them (its `answerOrder`; stored order for an attempt
 * drawn before answers were shuffled, or for an answer added since).
 */
async function loadQuestions(
  db: Db,
  ids: number[],
  answerOrder: Record<string, number[]> | null = null,
): Promise<BankQuestion[]> {
  return questionsAsShown(await getCourseContent(db), ids, answerOrder);
}

/** loadQuestions from the course content already in hand. */
function questionsAsShown(
  content: CourseContent,
  ids: number[],
  answerOrder: Record<string, number[]> | null,
): BankQuestion[] {
  return ids.flatMap((id) => {
    const question = content.questionById.get(id);
    if (!question) return [];
    const order = answerOrder?.[String(id)];
    if (!order) return [question];
    const position = new Map(order.map((answerId, index) => [answerId, index]));
    const answers = [...question.answers].sort(
      (a, b) => (position.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (position.get(b.id) ?? Number.MAX_SAFE_INTEGER),
    );
    return [{ ...question, answers }];
  });
}

/** Each question's answers in a new order for this attempt, so no position gives the answer away. */
function shuffleAnswers(content: CourseContent, questionIds: number[]): Record<string, number[]> {
  return Object.fromEntries(
    questionIds.map((id) => [String(id), shuffle((content.questionById.get(id)?.answers ?? []).map((a) => a.id))]),
  );
}

/**
 * Spec 2 and 9: the questions of a quiz (or of the final, chapter 6). The server draws them,
 * records the drawn set as an attempt, and shows no sign of which answer is correct. An attempt
 * not yet submitted is shown again as it was (a reload does not redraw). Refused while the
 * course gate holds the student (decision 012).
 */
export async function startQuizAttempt(
  db: Db,
  context: IssueContext,
  input: { studentId: number; progressVersion: number; profile: ProfileRef; chapterId: number; language: Language },
): Promise<Quiz> {
  // The final drawn through the chapter call keeps every rule of the final, its identity check
  // before the draw included (otherwise /quiz/questions/6 would skip it).
  if (input.chapterId === FINAL_EXAM_CHAPTER) return startFinalExamAttempt(db, context, input);
  const profile = await assertCourseOpen(db, context, input);
  return drawAttempt(db, context.clock, profile, input);
}

/**
 * Spec 9: the final exam's questions. Its gate may first ask the identity check a profile wants
 * before the final (decision 012).
 */
export async function startFinalExamAttempt(
  db: Db,
  context: IssueContext,
  input: { studentId: number; progressVersion: number; profile: ProfileRef; language: Language },
): Promise<Quiz> {
  const profile = await assertCourseOpen(db, context, input, { finalDraw: true });
  return drawAttempt(db, context.clock, profile, { ...input, chapterId: FINAL_EXAM_CHAPTER });
}

async function drawAttempt(
  db: Db,
  clock: Clock,
  profile: StudentProfile,
  input: { studentId: number; progressVersion: number; chapterId: number; language: Language },
): Promise<Quiz> {
  const { studentId, chapterId } = input;
  await assertChapterExists(db, chapterId);
  // The student's rules profile (decision 012): question count, pass mark, attempts and wait.
  const rules = quizRulesFor(profile.rules, chapterId);
  // A reload shows the unsubmitted attempt again. What let it be drawn still holds (completions
  // are never undone), so only the course gate, asked by the caller, is asked again: one query.
  const { open: shown, previousQuestionIds } = await readForDraw(db, input, chapterId);
  if (shown) return presentAttempt(db, shown, rules, profile, input.language);
  await assertQuizOpen(db, { ...input, edition: profile.rules.edition }, chapterId);
  await assertSeatTimeMet(db, {
    studentId,
    profile,
    scope: chapterId === FINAL_EXAM_CHAPTER ? { kind: 'course' } : { kind: 'chapter', chapterId },
  });
  const content = await getCourseContent(db);
  // The shared banks and, for a state edition's student, the edition's own questions (decision 051).
  const { edition } = profile.rules;
  // The latest attempt's questions are the ones not to draw again: read with the open attempts,
  // or here when this instance's copy answered that none is open. (An attempt a request at the
  // same moment drew since is the one saveDrawnAttempt answers.)
  let previous = previousQuestionIds;
  if (previous === undefined) {
    const latest = await findLatestAttempt(db, studentId, chapterId);
    if (latest && latest.submittedAt === null) return presentAttempt(db, latest, rules, profile, input.language);
    previous = latest?.questionIds ?? [];
  }
  await assertAttemptAllowed(db, clock, { studentId, chapterId, rules });
  const questionIds =
    chapterId === FINAL_EXAM_CHAPTER
      ? drawAcrossBanks(
          finalBanks(content, edition),
          rules.questionCount,
          finalExamHistory(await findFinalAttemptQuestions(db, studentId)),
        )
      : drawQuestions(chapterBank(content, chapterId, edition), rules.questionCount, new Set(previous));
  if (questionIds.length < rules.questionCount) {
    throw new AppError('QUESTION_BANK_TOO_SMALL', 'This quiz is not available yet. Please try again later.');
  }
  const attempt = await saveDrawnAttempt(db, {
    studentId,
    chapterId,
    questionIds,
    answerOrder: shuffleAnswers(content, questionIds),
    createdAt: clock.now(),
    rulesProfileId: profile.id,
    rulesProfileVersion: profile.version,
  });
  return presentAttempt(db, attempt, rules, profile, input.language);
}

/** The questions of each of the student's final attempts, oldest first (decision 049). */
async function findFinalAttemptQuestions(db: Db, studentId: number): Promise<number[][]> {
  const rows = await prepareOnce(db, 'find_final_attempt_questions', (database) =>
    database
      .select({ questionIds: quizAttempts.questionIds })
      .from(quizAttempts)
      .where(
        and(eq(quizAttempts.studentId, sql.placeholder('studentId')), eq(quizAttempts.chapterId, FINAL_EXAM_CHAPTER)),
      )
      .orderBy(asc(quizAttempts.id))
      .prepare('find_final_attempt_questions'),
  ).execute({ studentId });
  return rows.map((row) => row.questionIds);
}

/** The student's latest attempt at a quiz, submitted or not (a draw's one read). */
async function findLatestAttempt(db: Db, studentId: number, chapterId: number) {
  const [latest] = await prepareOnce(db, 'find_latest_attempt', (database) =>
    database
      .select()
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.studentId, sql.placeholder('studentId')),
          eq(quizAttempts.chapterId, sql.placeholder('chapterId')),
        ),
      )
      .orderBy(desc(quizAttempts.id))
      .limit(1)
      .prepare('find_latest_attempt'),
  ).execute({ studentId, chapterId });
  return latest;
}

/**
 * A shown quiz, kept with its open attempt per content version, language and rules (decision 019):
 * reloads find the attempt in this instance's open-attempt copy, so a reload gets the same quiz
 * object, and the route sends that object's kept JSON text (serve's memoisedAnswer).
 */
const keptQuizzes = createDerivedCache<Quiz>();

/** The drawn questions with their answers, none marked correct, in the student's language. */
async function presentAttempt(
  db: Db,
  attempt: OpenAttempt,
  rules: ReturnType<typeof quizRulesFor>,
  profile: StudentProfile,
  language: Language,
): Promise<Quiz> {
  const chapterId = attempt.chapterId;
  // Its submission is graded from this (findHeldAttempt).
  holdOpenAttempt(db, attempt);
  const content = await getCourseContent(db);
  const attemptsAllowed = await attemptsAllowedFor(db, { studentId: attempt.studentId, chapterId, rules });
  const key = `${String(content.version)} ${language} ${String(attemptsAllowed)} ${profile.id} ${String(profile.version)}`;
  return keptQuizzes(attempt, key, () => ({
    attemptId: attempt.id,
    chapter: chapterId,
    passMark: rules.passMark,
    questionCount: attempt.questionIds.length,
    attemptsAllowed,
    specRules: hasSpecQuizRules(profile.rules),
    questions: questionsAsShown(content, attempt.questionIds, attempt.answerOrder).map(
      ({ question, answers: choices }) => ({
        id: question.id,
        chapter_id: question.chapterId,
        question: pick(language, question.question, question.questionEs),
        answers: choices.map((answer) => ({
          id: answer.id,
          content: pick(language, answer.content, answer.contentEs),
        })),
      }),
    ),
  }));
}

/** Spec 7 GET /quiz/answers/{questionId}: only for a question the server drew for this student. */
export async function listAnswersForStudent(
  db: Db,
  input: { studentId: number; questionId: number; language: Language },
): Promise<{ id: number; content: string }[]> {
  const attempts = await db
    .select({ id: quizAttempts.id, questionIds: quizAttempts.questionIds, answerOrder: quizAttempts.answerOrder })
    .from(quizAttempts)
    .where(eq(quizAttempts.studentId, input.studentId))
    .orderBy(desc(quizAttempts.id));
  // The latest attempt that drew the question: its answers in the order that attempt shows them.
  const latest = attempts.find((attempt) => attempt.questionIds.includes(input.questionId));
  if (!latest) throw notFound('No such question in your quizzes.');
  const [question] = await loadQuestions(db, [input.questionId], latest.answerOrder);
  return (question?.answers ?? []).map((row) => ({
    id: row.id,
    content: pick(input.language, row.content, row.contentEs),
  }));
}

/** A graded attempt as saveGradedAttempt writes it. */
interface GradedAttempt {
  studentId: number;
  chapterId: number;
  attemptId: number;
  score: number;
  passed: boolean;
  result: StoredResult;
}

/**
 * Saves a graded attempt and what a pass earns, in one transaction of named steps (decision 052):
 *  1. the grade (saveGrade), only while the attempt is unsubmitted;
 *  2. the chapter's completion through it (recordChapterCompletion);
 *  3. for the final, the course's completion, its certificate and the certificate's emails
 *     (completeCourseWithCertificate).
 * All of it happens or none. Of two submissions of one attempt at once, the second's grade waits
 * for the first's row lock, then finds the attempt submitted and changes nothing: one grade, one
 * certificate, each email queued once. A failed grade is its one statement. Answers whether this
 * call graded the attempt.
 */
async function saveGradedAttempt(db: Db, context: IssueContext, graded: GradedAttempt): Promise<boolean> {
  if (!graded.passed) return saveGrade(db, context.clock, graded);
  let issued = false;
  const saved = await db.transaction(async (tx) => {
    if (!(await saveGrade(tx, context.clock, graded))) return false;
    await recordChapterCompletion(tx, context.clock, graded);
    if (graded.chapterId === FINAL_EXAM_CHAPTER)
      issued = await completeCourseWithCertificate(tx, context, graded.studentId);
    return true;
  });
  // Counted once the transaction has committed (decision 060).
  if (issued) schoolEvents.certificatesIssued.inc();
  return saved;
}

/**
 * The grade, written once: only an attempt not yet submitted is graded (decision 008). Answers
 * whether this call graded it. Prepared once: every submission of every quiz writes it.
 */
async function saveGrade(db: Db, clock: Clock, graded: GradedAttempt): Promise<boolean> {
  const rows = await prepareOnce(db, 'save_grade', (database) =>
    database
      .update(quizAttempts)
      .set({
        submittedAt: sql`${sql.placeholder('at')}::timestamptz`,
        score: sql`${sql.placeholder('score')}::int`,
        passed: sql`${sql.placeholder('passed')}::boolean`,
        result: sql`${sql.placeholder('result')}::json`,
      })
      .where(and(eq(quizAttempts.id, sql.placeholder('attemptId')), isNull(quizAttempts.submittedAt)))
      .returning({ id: quizAttempts.id })
      .prepare('save_grade'),
  ).execute({
    attemptId: graded.attemptId,
    at: clock.now().toISOString(),
    score: graded.score,
    passed: graded.passed,
    result: JSON.stringify(graded.result),
  });
  return rows.length > 0;
}

/**
 * Grades a submission against the attempt the server issued to this student: the same questions,
 * each answered once with one of its own answers. The score, PASS/FAIL and what is shown come
 * from the server; a pass completes the chapter (and the final, the course) in the same
 * transaction. A result, once given, is stored as shown and never changes. Refused while the
 * course gate holds the student (decision 012).
 */
export async function gradeQuizAttempt(
  db: Db,
  context: IssueContext,
  input: {
    studentId: number;
    progressVersion: number;
    profile: ProfileRef;
    chapterId: number;
    attemptId: number | undefined;
    submitted: { question: number; answer: number }[];
    language: Language;
  },
): Promise<QuizResult> {
  const { studentId, chapterId } = input;
  await assertCourseOpen(db, context, input);
  // The attempt named, held by this instance since it was drawn or shown; otherwise the open
  // attempt as the reload shows it, from this instance's copy while it is fresh.
  const held =
    input.attemptId === undefined ? undefined : findHeldAttempt(db, { ...input, attemptId: input.attemptId });
  const open = held ?? (await findFreshOpenAttempt(db, input, chapterId));
  const attempt = open && (input.attemptId === undefined || open.id === input.attemptId) ? open : undefined;
  if (!attempt) throw alreadySubmitted();

  const expected = attempt.questionIds;
  const chosen = new Map(input.submitted.map((entry) => [entry.question, entry.answer]));
  if (
    chosen.size !== input.submitted.length ||
    chosen.size !== expected.length ||
    !expected.every((id) => chosen.has(id))
  ) {
    throw new AppError('ANSWERS_DO_NOT_MATCH', 'Please answer all questions.');
  }

  // The results show each question's answers as the attempt showed them.
  const drawn = await loadQuestions(db, expected, attempt.answerOrder);
  let score = 0;
  const shown: ResultQuestion[] = [];
  for (const { question, answers: choices } of drawn) {
    const selected = chosen.get(question.id);
    if (!choices.some((answer) => answer.id === selected)) {
      throw badRequest('An answer does not belong to its question.');
    }
    if (choices.some((answer) => answer.id === selected && answer.isCorrect)) score += 1;
    shown.push(presentResultQuestion(input.language, question, choices, selected));
  }
  const result: StoredResult = { [input.language]: shown };
  // Graded under the profile version the attempt was drawn under, whatever was loaded since.
  const rules = quizRulesFor(await getRulesProfile(db, attempt.rulesProfileId, attempt.rulesProfileVersion), chapterId);
  const passed = score >= rules.passMark;

  // A final pass issues the certificate from the student as they are now.
  const graded = await saveGradedAttempt(db, context, {
    studentId,
    chapterId,
    attemptId: attempt.id,
    score,
    passed,
    result,
  });
  releaseAttempt(db, attempt.id);
  // Two submissions of one attempt at once (or a held attempt submitted through another
  // instance): only the first is graded.
  if (!graded) throw alreadySubmitted();

  return {
    submissionId: attempt.id,
    status: passed ? 'PASS' : 'FAIL',
    score,
    total: expected.length,
    chapter: chapterId,
    questionDisplay: shown,
    isFinal: chapterId === FINAL_EXAM_CHAPTER,
  };
}
