// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuizResult, StudentRules } from '@ts/contract';
import '../../lib/i18n.ts';
import { ScorePage } from './score-page.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const STUDENT_ID = 8;

function rulesWith(certificateRouting: StudentRules['certificateRouting']): StudentRules {
  const quiz = { questions: 10, passMark: 7, attempts: null, waitMinutes: 0 };
  return {
    profile: { id: 'some-state', version: 1, name: 'Course' },
    seatTime: {
      minutesPerModule: 0,
      minutesPerChapter: 0,
      minutesBeforeFinal: 0,
      idleCutoffMinutes: 15,
      dailyCapMinutes: null,
    },
    identityChecks: { enabled: false, answerSeconds: 90 },
    quizzes: { chapter: quiz, final: { ...quiz, questions: 20, passMark: 14 } },
    deadline: null,
    deadlineWarning: false,
    closedOn: null,
    certificateRouting,
  };
}

/** The API as the score page reads it: the public config and the student's rules (routing only matters). */
function stubApi(routing: StudentRules['certificateRouting'] | 'unreadable') {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const answer =
        url === '/api/public/config'
          ? {
              status: 200,
              body: {
                schoolName: 'School',
                supportEmail: 'help@school.example',
                coursePriceCents: 2995,
                payments: { provider: 'test', publishableKey: null },
                videoBaseUrl: '/videos',
              },
            }
          : routing === 'unreadable'
            ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } }
            : { status: 200, body: rulesWith(routing) };
      return Promise.resolve(
        new Response(JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
}

const mounted: Root[] = [];

async function renderFinalPassed(): Promise<string> {
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: STUDENT_ID,
      type: 'student',
      name: 'Sam',
      court_id: null,
      payment_at: '2026-11-01T00:00:00Z',
      completed_at: '2026-11-20T00:00:00Z',
    }),
  );
  const result: QuizResult = {
    submissionId: 1,
    status: 'PASS',
    score: 18,
    total: 20,
    chapter: 5,
    questionDisplay: [],
    isFinal: true,
  };
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[{ pathname: '/score', state: { result } }]}>
          <ScorePage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  // Until both answers are in: the support address (the config) and, after it, one more turn.
  for (let wait = 0; wait < 100 && !(container.textContent ?? '').includes('help@school.example'); wait++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return container.textContent ?? '';
}

afterEach(() => {
  for (const root of mounted.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the score page after a passed final exam', () => {
  it('says the certificate goes to the student and the court clerk under the spec’s routing', async () => {
    stubApi('student_and_court');
    expect(await renderFinalPassed()).toContain(
      'Your certificate will be emailed to you and to your court clerk. If nothing arrives within 24 hours, please write to us at help@school.example.',
    );
  });

  it('does not promise the court an email when the profile holds the certificate for the state report', async () => {
    stubApi('held_for_state_report');
    const text = await renderFinalPassed();
    expect(text).toContain(
      'Your certificate will be emailed to you, and the school reports your completion to the state.',
    );
    expect(text).not.toContain('court clerk');
  });

  it('says the certificate goes to the student alone under a student-only profile', async () => {
    stubApi('student_only');
    const text = await renderFinalPassed();
    expect(text).toContain('Your certificate will be emailed to you. If nothing arrives within 24 hours');
    expect(text).not.toContain('court clerk');
  });

  it('keeps the spec’s words when the rules cannot be read', async () => {
    stubApi('unreadable');
    expect(await renderFinalPassed()).toContain('emailed to you and to your court clerk');
  });
});
