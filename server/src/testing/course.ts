import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { FINAL_EXAM_CHAPTER, type Quiz, type ResultQuestion, type StaffRole } from '@ts/contract';
import type { Db } from '../db/client.ts';
import { type CreatedStaff, createStaff, createStudent, markStudentPaid } from './factories.ts';
import { signInStaff, signInStudent } from './sign-in.ts';
import {
  answers,
  chapterCompletions,
  moduleCompletions,
  modules,
  questions,
  quizAttempts,
  rulesProfiles,
  students,
} from '../db/schema.ts';
import { quizRulesFor } from '../features/quiz/quiz-rules.ts';
import { presentResultQuestion } from '../features/quiz/quiz.service.ts';
import { getRulesProfile } from '../features/rules/rules.service.ts';

/** A signed-in client of the API, as the browser would be. */
export interface ApiClient {
  /** The session, as a Cookie header value (to call another instance as the same person). */
  cookie: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, payload: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload: unknown): Promise<LightMyRequestResponse>;
}

export function apiClient(app: FastifyInstance, cookie: string): ApiClient {
  const send = (options: InjectOptions) => app.inject({ ...options, headers: { cookie, ...(options.headers ?? {}) } });
  return {
    cookie,
    get: (url, headers = {}) => send({ method: 'GET', url, headers }),
    post: (url, payload) => send({ method: 'POST', url, payload: payload as InjectOptions['payload'] }),
    put: (url, payload) => send({ method: 'PUT', url, payload: payload as InjectOptions['payload'] }),
  };
}

/** A chapter's modules as a student of `edition` is served them (null: the shared course), in order. */
export async function moduleIdsOf(db: Db, chapterId: number, edition: string | null = null): Promise<number[]> {
  const rows = await db
    .select({ id: modules.id })
    .from(modules)
    .where(
      and(
        eq(modules.chapterId, chapterId),
        edition === null ? isNull(modules.edition) : or(isNull(modules.edition), eq(modules.edition, edition)),
      ),
    )
    .orderBy(asc(modules.position), asc(modules.id));
  return rows.map((row) => row.id);
}

/** The state edition of a student's pinned rules profile (decision 051), null for the shared course alone. */
export async function editionOfStudent(db: Db, studentId: number): Promise<string | null> {
  const [row] = await db
    .select({ definition: rulesProfiles.definition })
    .from(students)
    .innerJoin(
      rulesProfiles,
      and(eq(rulesProfiles.id, students.rulesProfileId), eq(rulesProfiles.version, students.rulesProfileVersion)),
    )
    .where(eq(students.id, studentId));
  return (row?.definition as { edition?: string | null } | undefined)?.edition ?? null;
}

/** Marks every module of a chapter the student is served complete through the API (their edition's too). */
export async function completeModulesOf(
  client: ApiClient,
  db: Db,
  studentId: number,
  chapterId: number,
): Promise<void> {
  for (const moduleId of await moduleIdsOf(db, chapterId, await editionOfStudent(db, studentId))) {
    const response = await client.post('/api/students/moduleComplete', { studentId, moduleId });
    if (response.statusCode !== 200) throw new Error(`moduleComplete ${String(response.statusCode)}: ${response.body}`);
  }
}

/**
 * Answers a drawn quiz with exactly `correctCount` right answers (the rest wrong), reading the
 * answer key from the database as only a test may.
 */
export async function answersFor(
  db: Db,
  quiz: Quiz,
  correctCount: number,
): Promise<{ question: number; answer: number }[]> {
  const questionIds = quiz.questions.map((question) => question.id);
  const key = await db.select().from(answers).where(inArray(answers.questionId, questionIds));
  return quiz.questions.map((question, index) => {
    const choices = key.filter((answer) => answer.questionId === question.id);
    const pickCorrect = index < correctCount;
    const chosen = choices.find((answer) => answer.isCorrect === pickCorrect);
    if (!chosen) throw new Error(`question ${String(question.id)} has no ${pickCorrect ? 'correct' : 'wrong'} answer`);
    return { question: question.id, answer: chosen.id };
  });
}

export async function correctAnswerOf(db: Db, questionId: number): Promise<number> {
  const [row] = await db
    .select({ id: answers.id })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.isCorrect, true)));
  if (!row) throw new Error('no correct answer');
  return row.id;
}

/** Takes a chapter's quiz (or the final, 6) through the API with `correctCount` right answers. */
export async function takeQuiz(
  client: ApiClient,
  db: Db,
  studentId: number,
  chapterId: number,
  correctCount: number,
): Promise<LightMyRequestResponse> {
  const url =
    chapterId === 6 ? `/api/quiz/finalExamQuestions/${String(studentId)}` : `/api/quiz/questions/${String(chapterId)}`;
  const drawn = await client.get(url);
  if (drawn.statusCode !== 200) throw new Error(`drawing ${url}: ${String(drawn.statusCode)} ${drawn.body}`);
  const quiz = drawn.json<Quiz>();
  return client.post('/api/quiz/score', {
    studentId,
    chapter: chapterId,
    attemptId: quiz.attemptId,
    questions: await answersFor(db, quiz, correctCount),
  });
}

/** Completes a chapter the only way there is: its modules, then a passing quiz. */
export async function passChapter(client: ApiClient, db: Db, studentId: number, chapterId: number): Promise<void> {
  if (chapterId !== 6) await completeModulesOf(client, db, studentId, chapterId);
  // Every answer right, however many questions the student's profile draws.
  const result = await takeQuiz(client, db, studentId, chapterId, Number.POSITIVE_INFINITY);
  if (result.statusCode !== 200) throw new Error(`passing chapter ${String(chapterId)}: ${result.body}`);
}

/**
 * The rows a chapter's pass leaves behind (progress and quiz services), written straight to the
 * database for tests whose subject is not the course journey: every module of the chapter
 * complete, a submitted attempt under the student's rules profile answered all right, and the
 * chapter's completion through it. It skips the gates a student meets on the way (chapter order,
 * seat time); `passChapter` takes the API. Not for the final: its pass completes the course and
 * issues the certificate inside the grading transaction, so a test takes it through the API.
 */
export async function recordChapterPassed(
  db: Db,
  studentId: number,
  chapterId: number,
  at = new Date(),
): Promise<void> {
  if (chapterId === FINAL_EXAM_CHAPTER) throw new Error('take the final through the API (passChapter)');
  const moduleIds = await moduleIdsOf(db, chapterId);
  if (moduleIds.length > 0) {
    await db
      .insert(moduleCompletions)
      .values(moduleIds.map((moduleId) => ({ studentId, moduleId, completedAt: at })))
      .onConflictDoNothing();
  }
  const [student] = await db
    .select({ profileId: students.rulesProfileId, profileVersion: students.rulesProfileVersion })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student) throw new Error(`there is no student ${String(studentId)}`);
  const rules = quizRulesFor(await getRulesProfile(db, student.profileId, student.profileVersion), chapterId);
  const drawn = await db
    .select()
    .from(questions)
    .where(and(eq(questions.chapterId, chapterId), eq(questions.active, true)))
    .orderBy(asc(questions.id))
    .limit(rules.questionCount);
  const questionIds = drawn.map((question) => question.id);
  const key = await db
    .select()
    .from(answers)
    .where(inArray(answers.questionId, questionIds))
    .orderBy(asc(answers.questionId), asc(answers.position));
  const resultIn = (language: 'en' | 'es'): ResultQuestion[] =>
    drawn.map((question) => {
      const choices = key.filter((answer) => answer.questionId === question.id);
      const selected = choices.find((answer) => answer.isCorrect)?.id;
      return presentResultQuestion(language, question, choices, selected);
    });
  const [attempt] = await db
    .insert(quizAttempts)
    .values({
      studentId,
      chapterId,
      questionIds,
      createdAt: at,
      submittedAt: at,
      score: questionIds.length,
      passed: true,
      result: { en: resultIn('en'), es: resultIn('es') },
      rulesProfileId: student.profileId,
      rulesProfileVersion: student.profileVersion,
    })
    .returning({ id: quizAttempts.id });
  if (!attempt) throw new Error('attempt was not saved');
  await db
    .insert(chapterCompletions)
    .values({ studentId, chapterId, attemptId: attempt.id, completedAt: at })
    .onConflictDoNothing();
}

/** A paid student signed in, with a client that sends their session cookie. */
export async function signInPaidStudent(t: {
  app: FastifyInstance;
  db: Db;
}): Promise<{ id: number; client: ApiClient }> {
  const student = await createStudent(t.db);
  await markStudentPaid(t.db, student.id);
  return { id: student.id, client: apiClient(t.app, await signInStudent(t.app, student)) };
}

/** A staff member signed in: their client of the API, and who they are. */
export interface StaffClient extends ApiClient {
  member: CreatedStaff;
}

/** A new staff member of `role` (limited to one court with `courtId`), signed in as the admin login page does. */
export async function signedInStaff(
  t: { app: FastifyInstance; db: Db },
  role: StaffRole,
  courtId: number | null = null,
): Promise<StaffClient> {
  const member = await createStaff(t.db, { role, courtId });
  return { ...apiClient(t.app, await signInStaff(t.app, member)), member };
}
