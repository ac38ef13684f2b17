import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

interface QuestionFile {
  correct: number;
  en: { question: string; answers: string[] };
}

const CONTENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'content', 'course');

/**
 * The answer key as the course files hold it: question text -> correct answer text. A test
 * answers the way a student who read the chapter would.
 */
export function answerKey(): Map<string, string> {
  const key = new Map<string, string>();
  // Each chapter's quiz bank and its share of the final's own bank (decision 023).
  for (const chapter of [1, 2, 3, 4]) {
    for (const name of ['questions.json', 'final-questions.json']) {
      const file = path.join(CONTENT, `chapter-${String(chapter)}`, name);
      for (const question of JSON.parse(fs.readFileSync(file, 'utf8')) as QuestionFile[]) {
        key.set(question.en.question, question.en.answers[question.correct] ?? '');
      }
    }
  }
  return key;
}

/**
 * The admin journey edits a question by appending this mark (e2e/admin-area.spec.ts); tests
 * running beside it still find the question in the key.
 */
export const REVIEW_MARK = ' (reviewed)';
export const withoutReviewMark = (text: string) =>
  text.endsWith(REVIEW_MARK) ? text.slice(0, -REVIEW_MARK.length) : text;

/** Marks every module of a chapter complete through the API, as Mark Complete would: its quiz opens. */
export async function completeModulesByApi(
  request: APIRequestContext,
  studentId: number,
  chapter: number,
): Promise<void> {
  const modules = (await (await request.get(`/api/content/modules/${String(chapter)}`)).json()) as { id: number }[];
  for (const module of modules) {
    const saved = await request.post('/api/students/moduleComplete', { data: { studentId, moduleId: module.id } });
    expect(saved.ok()).toBe(true);
  }
}

/** Answers every question on the quiz page: right ones first, then `wrong` of them wrong. */
export async function answerQuiz(page: Page, wrong: number): Promise<void> {
  const key = answerKey();
  await expect(page.getByRole('button', { name: 'Submit Quiz' })).toBeVisible();
  const questions = page.getByRole('group').filter({ has: page.getByRole('radio') });
  const count = await questions.count();
  for (let i = 0; i < count; i++) {
    const question = questions.nth(i);
    const text = ((await question.locator('legend').textContent()) ?? '').replace(/^\d+\.\s*/, '').trim();
    const correct = key.get(withoutReviewMark(text));
    expect(correct, `answer key for "${text}"`).toBeDefined();
    const pickWrong = i >= count - wrong;
    const radios = question.getByRole('radio');
    const labels = await question.locator('label').allTextContents();
    const index = labels.findIndex((label) => (label.trim() === correct) !== pickWrong);
    await radios.nth(index).check();
  }
}

/** Completes a chapter (6: the final) through the API with a signed-in student's session, as the pages would. */
export async function passChapterByApi(request: APIRequestContext, studentId: number, chapter: number): Promise<void> {
  const key = answerKey();
  if (chapter !== 6) await completeModulesByApi(request, studentId, chapter);
  const url =
    chapter === 6 ? `/api/quiz/finalExamQuestions/${String(studentId)}` : `/api/quiz/questions/${String(chapter)}`;
  const quiz = (await (await request.get(url)).json()) as {
    attemptId: number;
    questions: { id: number; question: string; answers: { id: number; content: string }[] }[];
  };
  const questions = quiz.questions.map((q) => {
    const answer = q.answers.find((a) => a.content === key.get(withoutReviewMark(q.question)));
    if (!answer) throw new Error(`no key for ${q.question}`);
    return { question: q.id, answer: answer.id };
  });
  const scored = await request.post('/api/quiz/score', {
    data: { studentId, chapter, attemptId: quiz.attemptId, questions },
  });
  expect(((await scored.json()) as { status: string }).status).toBe('PASS');
}

/** Signs a request context in as the student and passes every chapter and the final through the API. */
export async function completeCourseByApi(
  request: APIRequestContext,
  student: { id: number; last_name: string; dl_number: string },
): Promise<void> {
  const login = await request.post('/api/login/student', {
    data: { last_name: student.last_name, dl_number: student.dl_number },
  });
  expect(login.status()).toBe(200);
  for (const chapter of [1, 2, 3, 4, 6]) await passChapterByApi(request, student.id, chapter);
  await request.post('/api/logout');
}
