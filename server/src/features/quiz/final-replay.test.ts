import type { Quiz, QuizResult } from '@ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { recordChapterPassed, signInPaidStudent } from '../../testing/course.ts';
import { drawAcrossBanks, finalExamHistory } from './draw-questions.ts';

/**
 * Decision 049: the spec's results page shows the correct answers, and retakes are unlimited, so a
 * final attempt draws questions this student was never shown while any remain. A student who
 * answers from what earlier results showed, and with the first option otherwise, learns nothing
 * that helps the next attempt.
 */
describe('the final exam against a student who replays earlier results', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('does not let such a student pass within ten attempts', async () => {
    const { id, client } = await signInPaidStudent(t);
    for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(t.db, id, chapter);
    const learned = new Map<number, number>();
    const seen = new Set<number>();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const drawn = await client.get(`/api/quiz/finalExamQuestions/${String(id)}`);
      expect(drawn.statusCode, drawn.body).toBe(200);
      const quiz = drawn.json<Quiz>();
      // Every question is new to this student while the bank lasts.
      expect(quiz.questions.filter((question) => seen.has(question.id))).toEqual([]);
      const scored = await client.post('/api/quiz/score', {
        studentId: id,
        chapter: 6,
        attemptId: quiz.attemptId,
        questions: quiz.questions.map((question) => ({
          question: question.id,
          answer: learned.get(question.id) ?? question.answers[0]!.id,
        })),
      });
      const result = scored.json<QuizResult>();
      expect(result.status, `attempt ${String(attempt)}: ${String(result.score)} of ${String(result.total)}`).toBe(
        'FAIL',
      );
      for (const question of result.questionDisplay) {
        seen.add(question.id);
        const correct = question.answers.find((answer) => answer.correct);
        if (correct) learned.set(question.id, correct.id);
      }
    }
  });

  it('draws the questions shown longest ago once every question has been shown, never the previous attempt’s', () => {
    const bank = [1, 2, 3, 4, 5, 6];
    // Attempts showed 1-2, then 3-4, then 5-6: the oldest (1, 2) come next, then 3-4; 5-6 never.
    const history = finalExamHistory([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(new Set(drawAcrossBanks([bank], 2, history))).toEqual(new Set([1, 2]));
    expect(new Set(drawAcrossBanks([bank], 4, history))).toEqual(new Set([1, 2, 3, 4]));
    expect(drawAcrossBanks([bank], 6, history)).toHaveLength(4);
  });

  it('draws every never-shown question before any shown one', () => {
    const history = finalExamHistory([[1, 2, 3]]);
    for (let round = 0; round < 20; round += 1) {
      expect(new Set(drawAcrossBanks([[1, 2, 3, 4, 5, 6, 7]], 4, history))).toEqual(new Set([4, 5, 6, 7]));
    }
  });
});
