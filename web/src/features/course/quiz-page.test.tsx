// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { Quiz } from '@ts/contract';
import { click, find, render, settled, stubApi, waitFor, type Answer } from '../../testing/page.tsx';
import { QuizPage } from './quiz-page.tsx';

const STUDENT = {
  id: 3,
  type: 'student',
  name: 'Sam Lee',
  court_id: null,
  payment_at: '2026-11-01T00:00:00Z',
  completed_at: null,
};

const QUIZ: Quiz = {
  attemptId: 41,
  chapter: 1,
  passMark: 1,
  questionCount: 1,
  attemptsAllowed: null,
  specRules: true,
  questions: [
    {
      id: 7,
      chapter_id: 1,
      question: 'What does a red light mean?',
      answers: [
        { id: 70, content: 'Stop' },
        { id: 71, content: 'Go' },
      ],
    },
  ],
};

const json = (status: number, body: unknown): Answer => ({ status, body });

/** The quiz calls answer as the server would; the submission behaves as `score`. */
function answerQuiz(score: () => Answer | Promise<Answer>): void {
  stubApi((url, init) => {
    if (url === '/api/students/3/quizStatus/1') return json(200, { complete: false, status: null });
    if (url === '/api/quiz/questions/1') return json(200, QUIZ);
    if (url === '/api/quiz/score' && init?.method === 'POST') return score();
    return json(404, { error: { code: 'NOT_FOUND', message: `no stub for ${url}` } });
  });
}

/** A signed-in student answers chapter 1's quiz and submits it; resolves with the page's alert. */
async function submitQuiz(score: () => Answer | Promise<Answer>): Promise<HTMLElement> {
  localStorage.setItem('user', JSON.stringify(STUDENT));
  answerQuiz(score);
  const container = render(<QuizPage />, { at: '/quiz/1', path: '/quiz/:chapterId', elsewhere: <p>score page</p> });
  const stop = await find<HTMLInputElement>(container, 'input[type="radio"][value="70"]');
  await click(stop);
  await waitFor(() => expect(stop.checked).toBe(true));
  await click(container.querySelector<HTMLButtonElement>('button[type="submit"]'));
  await settled();
  return find(container, '[role="alert"]');
}

const storedUser = () => JSON.parse(localStorage.getItem('user') ?? 'null') as unknown;

describe('a quiz submission that fails (spec 8, decision 015)', () => {
  it('keeps the student signed in, with the answers, when a reload aborted it', async () => {
    const alert = await submitQuiz(() => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')));
    expect(alert.textContent).toBe(
      'Your answers could not be sent: the connection to the school was lost. Check your connection and submit them again.',
    );
    expect(storedUser()).toEqual(STUDENT);
    expect(document.querySelector<HTMLInputElement>('input[value="70"]')?.checked).toBe(true);
    expect(document.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled).toBe(false);
  });

  it('keeps the student signed in after a network error', async () => {
    const alert = await submitQuiz(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(alert.textContent).toContain('Check your connection and submit them again.');
    expect(storedUser()).toEqual(STUDENT);
  });

  it("removes the stored user after the server's 401", async () => {
    const alert = await submitQuiz(() => json(401, { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } }));
    expect(alert.textContent).toBe('We could not submit your answers. Please sign in again and retake the quiz.');
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('keeps the student signed in and says what happened when the attempt was already submitted (another tab, a second click)', async () => {
    const alert = await submitQuiz(() =>
      json(409, { error: { code: 'NO_OPEN_ATTEMPT', message: 'This attempt was already submitted.' } }),
    );
    expect(alert.textContent).toBe('This quiz has already been submitted. Please start it again.');
    expect(storedUser()).toEqual(STUDENT);
  });

  it('removes the stored user after a 500 the server answered', async () => {
    const alert = await submitQuiz(() => json(500, { error: { code: 'INTERNAL', message: 'Something went wrong.' } }));
    expect(alert.textContent).toBe('We could not submit your answers. Please sign in again and retake the quiz.');
    expect(localStorage.getItem('user')).toBeNull();
  });
});
