// @vitest-environment happy-dom
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Quiz } from '@ts/contract';
import '../../lib/i18n.ts';
import { QuizPage } from './quiz-page.tsx';

// No act(): react-query reports from its own timers, and the tests wait for the outcome instead.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

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

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

/** The quiz calls answer as the server would; the submission behaves as `score`. */
function stubApi(score: () => Promise<Response>): void {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (url === '/api/students/3/quizStatus/1') return json(200, { complete: false, status: null });
      if (url === '/api/quiz/questions/1') return json(200, QUIZ);
      if (url === '/api/quiz/score' && init?.method === 'POST') return score();
      return json(404, { error: { code: 'NOT_FOUND', message: `no stub for ${url}` } });
    }),
  );
}

const mounted: Root[] = [];

/** A signed-in student answers chapter 1's quiz and submits it; resolves with the page's alert. */
async function submitQuiz(score: () => Promise<Response>): Promise<HTMLElement> {
  localStorage.setItem('user', JSON.stringify(STUDENT));
  stubApi(score);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  root.render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/quiz/1']}>
        <Routes>
          <Route path="/quiz/:chapterId" element={<QuizPage />} />
          <Route path="/score" element={<p>score page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const stop = await vi.waitFor(() => {
    const radio = container.querySelector<HTMLInputElement>('input[type="radio"][value="70"]');
    if (!radio) throw new Error('the quiz is not shown yet');
    return radio;
  });
  stop.click();
  await vi.waitFor(() => expect(stop.checked).toBe(true));
  container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  return vi.waitFor(() => {
    const alert = container.querySelector<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('no alert yet');
    return alert;
  });
}

const storedUser = () => JSON.parse(localStorage.getItem('user') ?? 'null') as unknown;

afterEach(() => {
  for (const root of mounted.splice(0)) root.unmount();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  localStorage.clear();
});

describe('a quiz submission that fails (spec 8, issue 13)', () => {
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

  it('removes the stored user after a 500 the server answered', async () => {
    const alert = await submitQuiz(() => json(500, { error: { code: 'INTERNAL', message: 'Something went wrong.' } }));
    expect(alert.textContent).toBe('We could not submit your answers. Please sign in again and retake the quiz.');
    expect(localStorage.getItem('user')).toBeNull();
  });
});
