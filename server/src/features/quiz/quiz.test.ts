import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quiz, QuizResult } from '@ts/contract';
import { answers, questions, quizAttempts, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  type ApiClient,
  answersFor,
  apiClient,
  completeModulesOf,
  passChapter,
  signInPaidStudent,
  takeQuiz,
} from '../../testing/course.ts';
import { createStudent } from '../../testing/factories.ts';
import { saveDrawnAttempt } from './drawn-attempts.ts';
import { signInStudent } from '../../testing/sign-in.ts';

describe('quizzes and the final exam', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const paidStudent = () => signInPaidStudent(t);

  /** An attempt at chapter 1's quiz as a draw saves it. */
  const drawnAttempt = (studentId: number) => ({
    studentId,
    chapterId: 1,
    questionIds: [1, 2, 3],
    answerOrder: {},
    createdAt: t.clock.now(),
    rulesProfileId: 'default',
    rulesProfileVersion: 1,
  });

  async function drawChapterQuiz(client: ApiClient, chapter: number): Promise<Quiz> {
    const response = await client.get(`/api/quiz/questions/${String(chapter)}`);
    expect(response.statusCode).toBe(200);
    return response.json<Quiz>();
  }

  it('draws 10 questions from the chapter bank with answers that do not say which is correct', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const response = await client.get('/api/quiz/questions/1');
    expect(response.statusCode).toBe(200);
    const quiz = response.json<Quiz>();
    expect(quiz.questions).toHaveLength(10);
    expect(quiz.passMark).toBe(7);
    expect(new Set(quiz.questions.map((q) => q.id)).size).toBe(10);
    expect(quiz.questions.every((q) => q.chapter_id === 1 && q.answers.length >= 3)).toBe(true);
    expect(response.body).not.toMatch(/correct/i);
    const [attempt] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, quiz.attemptId));
    expect(attempt?.questionIds).toEqual(quiz.questions.map((q) => q.id));
  });

  it('shows an unsubmitted attempt again on reload instead of drawing anew', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const first = await drawChapterQuiz(client, 1);
    const second = await drawChapterQuiz(client, 1);
    expect(second.attemptId).toBe(first.attemptId);
    expect(second.questions.map((q) => q.id)).toEqual(first.questions.map((q) => q.id));
  });

  it('shows a reloaded quiz in the language asked for each time, with an edit of a drawn question at once', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const drawn = await drawChapterQuiz(client, 1);
    const english = await drawChapterQuiz(client, 1);
    expect(await drawChapterQuiz(client, 1)).toEqual(english);
    const spanish = (await client.get('/api/quiz/questions/1', { 'accept-language': 'es' })).json<Quiz>();
    expect(spanish.questions[0]?.question).not.toBe(english.questions[0]?.question);
    expect(await drawChapterQuiz(client, 1)).toEqual(drawn);

    // Reloads are answered from memory (decision 019), yet an edit by staff shows on the next one.
    const first = english.questions[0]!;
    const [before] = await t.db.select().from(questions).where(eq(questions.id, first.id));
    await t.db
      .update(questions)
      .set({ question: 'Edited while a student had it open?' })
      .where(eq(questions.id, first.id));
    try {
      const reloaded = await drawChapterQuiz(client, 1);
      expect(reloaded.attemptId).toBe(drawn.attemptId);
      expect(reloaded.questions[0]?.question).toBe('Edited while a student had it open?');
    } finally {
      await t.db.update(questions).set({ question: before!.question }).where(eq(questions.id, first.id));
    }
  });

  describe('answers in a new order on every attempt (decision 022)', () => {
    it('stores the order each question’s answers were shown in, shows it again on reload and in the results', async () => {
      const { id, client } = await paidStudent();
      await completeModulesOf(client, t.db, id, 1);
      const quiz = await drawChapterQuiz(client, 1);
      const [attempt] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, quiz.attemptId));
      for (const question of quiz.questions) {
        expect(attempt?.answerOrder?.[String(question.id)]).toEqual(question.answers.map((answer) => answer.id));
      }
      const reloaded = await drawChapterQuiz(client, 1);
      expect(reloaded.questions).toEqual(quiz.questions);
      const answersCall = await client.get(`/api/quiz/answers/${String(quiz.questions[0]!.id)}`);
      expect(answersCall.json<{ id: number }[]>().map((answer) => answer.id)).toEqual(
        quiz.questions[0]!.answers.map((answer) => answer.id),
      );

      // Graded by answer id, whatever the order; the results keep the order shown.
      const submitted = await client.post('/api/quiz/score', {
        studentId: id,
        chapter: 1,
        attemptId: quiz.attemptId,
        questions: await answersFor(t.db, quiz, 10),
      });
      const result = submitted.json<QuizResult>();
      expect(result).toMatchObject({ status: 'PASS', score: 10 });
      expect(result.questionDisplay.map((question) => question.answers.map((answer) => answer.content))).toEqual(
        quiz.questions.map((question) => question.answers.map((answer) => answer.content)),
      );
    });

    it('puts the correct answer in every position across attempts, not where the bank stores it', async () => {
      const positions = new Set<number>();
      let differsFromBank = 0;
      for (let student = 0; student < 3; student += 1) {
        const { id, client } = await paidStudent();
        await completeModulesOf(client, t.db, id, 1);
        const quiz = await drawChapterQuiz(client, 1);
        for (const question of quiz.questions) {
          const stored = await t.db
            .select({ id: answers.id, correct: answers.isCorrect })
            .from(answers)
            .where(eq(answers.questionId, question.id))
            .orderBy(asc(answers.position), asc(answers.id));
          const correct = stored.find((answer) => answer.correct)?.id;
          positions.add(question.answers.findIndex((answer) => answer.id === correct));
          if (stored.map((answer) => answer.id).join() !== question.answers.map((answer) => answer.id).join()) {
            differsFromBank += 1;
          }
        }
      }
      // 30 questions of three or more answers: the correct one lands in each of the first three places.
      expect([...positions]).toEqual(expect.arrayContaining([0, 1, 2]));
      expect(differsFromBank).toBeGreaterThan(10);
    });
  });

  it('gives two simultaneous requests for a quiz one and the same attempt', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const [first, second] = await Promise.all([
      client.get('/api/quiz/questions/1'),
      client.get('/api/quiz/questions/1'),
    ]);
    expect(first?.json<Quiz>().attemptId).toBe(second?.json<Quiz>().attemptId);
    const attempts = await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, id));
    expect(attempts).toHaveLength(1);
  });

  it("answers the open attempt, not a second one, when a draw's write comes after another's (decision 055)", async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const open = await drawChapterQuiz(client, 1);
    // What a second request's write looks like when it read no open attempt before the first saved.
    const answered = await saveDrawnAttempt(t.db, drawnAttempt(id));
    expect(answered.id).toBe(open.attemptId);
    const attempts = await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, id));
    expect(attempts.map((attempt) => attempt.id)).toEqual([open.attemptId]);
  });

  it('saves one of two draws written at once, and answers both with it', async () => {
    const { id } = await paidStudent();
    const [first, second] = await Promise.all([
      saveDrawnAttempt(t.db, drawnAttempt(id)),
      saveDrawnAttempt(t.db, { ...drawnAttempt(id), questionIds: [4, 5, 6] }),
    ]);
    expect(second.id).toBe(first.id);
    const attempts = await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, id));
    expect(attempts.map((attempt) => attempt.id)).toEqual([first.id]);
  });

  it('keeps a second open attempt at the same quiz out of the database', async () => {
    const { id } = await paidStudent();
    await saveDrawnAttempt(t.db, drawnAttempt(id));
    await expect(t.db.insert(quizAttempts).values({ studentId: id, chapterId: 1, questionIds: [7] })).rejects.toThrow();
  });

  it('draws a retake from questions the previous attempt did not use', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const first = await drawChapterQuiz(client, 1);
    await client.post('/api/quiz/score', { studentId: id, chapter: 1, questions: await answersFor(t.db, first, 0) });
    const retake = await drawChapterQuiz(client, 1);
    expect(retake.attemptId).not.toBe(first.attemptId);
    const overlap = retake.questions.filter((q) => first.questions.some((f) => f.id === q.id));
    expect(overlap).toEqual([]);
  });

  it('fails 6 of 10 and passes 7 of 10, with the score and the correct answers shown after', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const failed = await takeQuiz(client, t.db, id, 1, 6);
    expect(failed.statusCode).toBe(200);
    const failResult = failed.json<QuizResult>();
    expect(failResult).toMatchObject({ status: 'FAIL', score: 6, total: 10, isFinal: false });
    const wrong = failResult.questionDisplay.filter((q) => q.answers.some((a) => a.selected && !a.correct));
    expect(wrong).toHaveLength(4);
    expect(failResult.questionDisplay.every((q) => q.answers.filter((a) => a.correct).length === 1)).toBe(true);
    expect(failResult.questionDisplay.every((q) => typeof q.explanation === 'string')).toBe(true);

    const passed = await takeQuiz(client, t.db, id, 1, 7);
    expect(passed.json<QuizResult>()).toMatchObject({ status: 'PASS', score: 7 });
    const completed = await client.get(`/api/students/${String(id)}/completedChapters`);
    expect(completed.json()).toEqual([1]);
    const status = await client.get(`/api/students/${String(id)}/quizStatus/1`);
    expect(status.json()).toEqual({ complete: true, status: 'PASS' });
  });

  it('scores a submission only against the attempt the server issued', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const quiz = await drawChapterQuiz(client, 1);
    const answers = await answersFor(t.db, quiz, 10);

    const [other] = await t.db.select({ id: questions.id }).from(questions).where(eq(questions.chapterId, 2)).limit(1);
    const swapped = [...answers.slice(1), { question: other!.id, answer: answers[0]!.answer }];
    const forged = await client.post('/api/quiz/score', { studentId: id, chapter: 1, questions: swapped });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('ANSWERS_DO_NOT_MATCH');

    const missing = await client.post('/api/quiz/score', { studentId: id, chapter: 1, questions: answers.slice(1) });
    expect(missing.statusCode).toBe(400);

    const crossed = answers.map((entry, index) => (index === 0 ? { ...entry, answer: answers[1]!.answer } : entry));
    const wrongAnswer = await client.post('/api/quiz/score', { studentId: id, chapter: 1, questions: crossed });
    expect(wrongAnswer.statusCode).toBe(400);

    const [attempt] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, quiz.attemptId));
    expect(attempt?.submittedAt).toBeNull();
    const completed = await client.get(`/api/students/${String(id)}/completedChapters`);
    expect(completed.json()).toEqual([]);
  });

  it('grades one of two simultaneous submissions of the same attempt and refuses the other', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const quiz = await drawChapterQuiz(client, 1);
    const payload = {
      studentId: id,
      chapter: 1,
      attemptId: quiz.attemptId,
      questions: await answersFor(t.db, quiz, 8),
    };
    const responses = await Promise.all([
      client.post('/api/quiz/score', payload),
      client.post('/api/quiz/score', payload),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('tells a student who already completed a chapter that its quiz is done', async () => {
    const { id, client } = await paidStudent();
    await passChapter(client, t.db, id, 1);
    const again = await client.get('/api/quiz/questions/1');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ALREADY_COMPLETE');
  });

  /** The course chapter each drawn final question tests (its module's chapter), as stored. */
  async function testedChapters(quiz: Quiz): Promise<number[]> {
    const rows = await t.db.select({ id: questions.id, moduleKey: questions.moduleKey }).from(questions);
    const byId = new Map(rows.map((row) => [row.id, Number(/^ch(\d)-/.exec(row.moduleKey ?? '')?.[1])]));
    return quiz.questions.map((question) => byId.get(question.id) ?? 0);
  }

  it('opens the final after chapters 1-4: 20 questions of its own bank, 5 per chapter, 13 fails, 14 passes and completes the course', async () => {
    const { id, client } = await paidStudent();
    for (const chapter of [1, 2, 3, 4]) await passChapter(client, t.db, id, chapter);

    const drawn = await client.get(`/api/quiz/finalExamQuestions/${String(id)}`);
    const final = drawn.json<Quiz>();
    expect(final.questions).toHaveLength(20);
    expect(final.passMark).toBe(14);
    // Never a chapter quiz's question, whose answer the student has already been shown.
    expect(final.questions.every((question) => question.chapter_id === 6)).toBe(true);
    const tested = await testedChapters(final);
    expect([1, 2, 3, 4].map((chapter) => tested.filter((n) => n === chapter).length)).toEqual([5, 5, 5, 5]);
    const failed = await client.post('/api/quiz/score', {
      studentId: id,
      chapter: 6,
      attemptId: final.attemptId,
      questions: await answersFor(t.db, final, 13),
    });
    expect(failed.json<QuizResult>()).toMatchObject({ status: 'FAIL', score: 13, total: 20, isFinal: true });
    const [before] = await t.db.select().from(students).where(eq(students.id, id));
    expect(before?.completedAt).toBeNull();

    const retake = (await client.get(`/api/quiz/finalExamQuestions/${String(id)}`)).json<Quiz>();
    const firstForm = new Set(final.questions.map((question) => question.id));
    expect(retake.questions.filter((question) => firstForm.has(question.id))).toEqual([]);
    const passed = await takeQuiz(client, t.db, id, 6, 14);
    expect(passed.json<QuizResult>()).toMatchObject({ status: 'PASS', score: 14, isFinal: true });
    const [after] = await t.db.select().from(students).where(eq(students.id, id));
    expect(after?.completedAt).toEqual(t.clock.now());
    expect((await client.get(`/api/students/${String(id)}/completedChapters`)).json()).toEqual([1, 2, 3, 4, 6]);
    expect((await client.get('/api/me')).json().user.completed_at).toBe(t.clock.now().toISOString());
  });

  it('keeps a result as it was shown, in the language the student took the quiz in', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const spanish = { 'accept-language': 'es' };
    const quiz = (await client.get('/api/quiz/questions/1', spanish)).json<Quiz>();
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/quiz/score',
      headers: { cookie: client.cookie, ...spanish },
      payload: { studentId: id, chapter: 1, attemptId: quiz.attemptId, questions: await answersFor(t.db, quiz, 9) },
    });
    const given = submitted.json<QuizResult>();
    expect(given.questionDisplay.map((question) => question.question)).toEqual(
      quiz.questions.map((question) => question.question),
    );
    const [stored] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, given.submissionId));
    expect(stored?.result).toEqual({ es: given.questionDisplay });
  });

  it('never changes a result already given when a question is edited later', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const result = (await takeQuiz(client, t.db, id, 1, 9)).json<QuizResult>();
    const firstQuestion = result.questionDisplay[0]!;
    await t.db.update(questions).set({ question: 'Edited by an admin' }).where(eq(questions.id, firstQuestion.id));
    const [stored] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, result.submissionId));
    const shown = (stored?.result as { en: { question: string }[] }).en[0];
    expect(shown?.question).toBe(firstQuestion.question);
    expect(stored?.score).toBe(9);
  });

  it('answers in Spanish when the browser asks for Spanish, with the same questions and progress', async () => {
    const { id, client } = await paidStudent();
    await completeModulesOf(client, t.db, id, 1);
    const english = await drawChapterQuiz(client, 1);
    const spanish = (await client.get('/api/quiz/questions/1', { 'accept-language': 'es-MX,es;q=0.9' })).json<Quiz>();
    expect(spanish.attemptId).toBe(english.attemptId);
    expect(spanish.questions.map((q) => q.id)).toEqual(english.questions.map((q) => q.id));
    expect(spanish.questions[0]?.question).not.toBe(english.questions[0]?.question);
  });

  it('needs a paid student acting on their own records', async () => {
    const unpaid = await createStudent(t.db);
    const unpaidClient = apiClient(t.app, await signInStudent(t.app, unpaid));
    expect((await unpaidClient.get('/api/quiz/questions/1')).statusCode).toBe(402);

    const { id, client } = await paidStudent();
    const other = await paidStudent();
    expect((await client.get(`/api/students/${String(other.id)}/completedChapters`)).statusCode).toBe(403);
    expect((await client.get(`/api/quiz/finalExamQuestions/${String(other.id)}`)).statusCode).toBe(403);
    const scoreForOther = await client.post('/api/quiz/score', {
      studentId: other.id,
      chapter: 1,
      questions: [{ question: 1, answer: 1 }],
    });
    expect(scoreForOther.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/quiz/questions/1' })).statusCode).toBe(401);
    expect(id).not.toBe(other.id);
  });
});
