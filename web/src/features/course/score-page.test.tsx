// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { QuizResult, StudentRules } from '@ts/contract';
import { render, settled, stubApi } from '../../testing/page.tsx';
import { ScorePage } from './score-page.tsx';
import { studentRulesWith } from '../../testing/rules.ts';

const STUDENT_ID = 8;

const rulesWith = (certificateRouting: StudentRules['certificateRouting']): StudentRules =>
  studentRulesWith({ profile: { id: 'some-state', version: 1, name: 'Course' }, certificateRouting });

/** The API as the score page reads it: the public config and the student's rules (routing only matters). */
function answerScorePage(routing: StudentRules['certificateRouting'] | 'unreadable') {
  stubApi((url) =>
    url === '/api/public/config'
      ? {
          body: {
            schoolName: 'School',
            supportEmail: 'help@school.example',
            coursePriceCents: 2995,
            payments: { provider: 'test', publishableKey: null },
            videoBaseUrl: '/videos',
            schoolTimeZone: 'America/Los_Angeles',
          },
        }
      : routing === 'unreadable'
        ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } }
        : { body: rulesWith(routing) },
  );
}

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
  const page = render(<ScorePage />, { at: { pathname: '/score', state: { result } } });
  // Both answers in: the support address (the config) and the student's rules.
  await settled();
  return page.textContent ?? '';
}

describe('the score page after a passed final exam', () => {
  it('says the certificate goes to the student and the court clerk under the spec’s routing', async () => {
    answerScorePage('student_and_court');
    expect(await renderFinalPassed()).toContain(
      'Your certificate will be emailed to you and to your court clerk. If nothing arrives within 24 hours, please write to us at help@school.example.',
    );
  });

  it('does not promise the court an email when the profile holds the certificate for the state report', async () => {
    answerScorePage('held_for_state_report');
    const text = await renderFinalPassed();
    expect(text).toContain(
      'Your certificate will be emailed to you, and the school reports your completion to the state.',
    );
    expect(text).not.toContain('court clerk');
  });

  it('says the certificate goes to the student alone under a student-only profile', async () => {
    answerScorePage('student_only');
    const text = await renderFinalPassed();
    expect(text).toContain('Your certificate will be emailed to you. If nothing arrives within 24 hours');
    expect(text).not.toContain('court clerk');
  });

  it('offers View your certificate first, the certificate page, and Return to home page beside it', async () => {
    answerScorePage('student_and_court');
    await renderFinalPassed();
    const links = [...document.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['View your certificate', '/certificate'],
      ['Return to home page', '/'],
    ]);
  });

  it('keeps the spec’s words when the rules cannot be read', async () => {
    answerScorePage('unreadable');
    expect(await renderFinalPassed()).toContain('emailed to you and to your court clerk');
  });
});
