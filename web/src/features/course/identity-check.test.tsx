// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IdentityCheckState, OpenIdentityCheck, StudentRules } from '@ts/contract';
import { buttonNamed, click, render, settled, setValue, stubApi, type Answer } from '../../testing/page.tsx';
import { IdentityCheckDialog } from './identity-check.tsx';
import { strictRulesWith, studentRulesWith } from '../../testing/rules.ts';

const STUDENT_ID = 5;
const CHECK_URL = `/api/students/${String(STUDENT_ID)}/identity-check`;

const rules = (enabled: boolean): StudentRules =>
  enabled ? strictRulesWith({ seatTime: studentRulesWith().seatTime }) : studentRulesWith();

const check = (overrides: Partial<OpenIdentityCheck> = {}): OpenIdentityCheck => ({
  id: 11,
  source: 'dob',
  question_key: 'dob',
  reason: 'random',
  expires_at: '2026-11-22T15:01:30Z',
  seconds_left: 83,
  ...overrides,
});

/**
 * Answers the API: the profile's rules, the public config, and whatever `identity` says for the
 * identity calls (called with the method and the URL), recording every call.
 */
function answerIdentity(enabled: boolean, identity: (method: string, url: string, body: unknown) => Answer) {
  const api = stubApi((url, init) => {
    if (url === `/api/students/${String(STUDENT_ID)}/rules`) return { body: rules(enabled) };
    if (url === '/api/public/config') {
      return {
        body: {
          schoolName: 'School',
          supportEmail: 'help@school.example',
          coursePriceCents: 2995,
          payments: { provider: 'test', publishableKey: null },
          videoBaseUrl: '/videos',
          schoolTimeZone: 'America/Los_Angeles',
        },
      };
    }
    return identity(init?.method ?? 'GET', url, init?.body ? JSON.parse(String(init.body)) : undefined);
  });
  return { identityCalls: () => api.requests().filter(({ url }) => url.startsWith(CHECK_URL)) };
}

function renderDialog(): HTMLElement {
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: STUDENT_ID,
      type: 'student',
      name: 'Sam',
      court_id: null,
      payment_at: '2026-11-01T00:00:00Z',
      completed_at: null,
    }),
  );
  return render(<IdentityCheckDialog />, { at: '/content/1/3' });
}

const dialogOf = (container: HTMLElement) => container.querySelector('dialog')!;

async function typeAnswer(container: HTMLElement, value: string) {
  const input = container.querySelector<HTMLInputElement>('input[name="identity-answer"]');
  if (!input) throw new Error('no answer field');
  await setValue(input, value);
}

async function submit(container: HTMLElement) {
  await click(buttonNamed(container, 'Submit'));
  await settled();
}

// The countdown's clock is the test's: it ticks only when a test says so. The API answers as usual.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('identity check dialog (decision 012)', () => {
  it('warns on screen and for screen readers when 30 seconds are left (decision 050)', async () => {
    answerIdentity(true, () => ({ status: 200, body: { check: check({ seconds_left: 35 }), locked: null } }));
    const container = renderDialog();
    await settled();
    expect(container.textContent).not.toContain('Less than 30 seconds left');
    await act(async () => {
      vi.advanceTimersByTime(5_000);
      await Promise.resolve();
    });
    expect(container.textContent).toContain('Less than 30 seconds left: please answer now.');
    expect(container.querySelector('[aria-live="polite"]')?.textContent).toBe(
      'Less than 30 seconds left: please answer now.',
    );
  });

  it("asks one of the student's personal questions in its own words", async () => {
    answerIdentity(true, () => ({
      status: 200,
      body: { check: check({ source: 'personal', question_key: 'personal.first_car_make' }), locked: null },
    }));
    const container = renderDialog();
    await settled();
    expect(container.querySelector('label')?.textContent).toBe('What was the make of your first car?');
  });

  it('asks nothing and shows nothing under a profile without identity checks', async () => {
    const api = answerIdentity(false, () => ({ status: 500, body: {} }));
    const container = renderDialog();
    await settled();
    expect(api.identityCalls()).toEqual([]);
    expect(dialogOf(container).open).toBe(false);
    expect(container.textContent).toBe('');
  });

  it('shows the question with a countdown, the next question after a wrong answer, and closes on a right one', async () => {
    let state: IdentityCheckState = { check: check(), locked: null };
    const api = answerIdentity(true, (method, _url, body) => {
      if (method === 'GET') return { status: 200, body: state };
      const answer = (body as { answer: string }).answer;
      if (answer === 'wrong') {
        state = { check: check({ id: 12, source: 'zip', question_key: 'zip', seconds_left: 90 }), locked: null };
        return { status: 200, body: { outcome: 'wrong', next: state } };
      }
      state = { check: null, locked: null };
      return { status: 200, body: { outcome: 'passed', next: state } };
    });
    const container = renderDialog();
    await settled();
    const dialog = dialogOf(container);
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const title = container.querySelector(`[id="${dialog.getAttribute('aria-labelledby') ?? ''}"]`);
    expect(title?.textContent).toBe('Identity check');
    const label = container.querySelector('label');
    expect(label?.textContent).toBe('What is your date of birth?');
    expect(container.querySelector(`[id="${label?.htmlFor ?? ''}"]`)?.getAttribute('name')).toBe('identity-answer');
    expect(container.querySelector('[role="timer"]')?.textContent).toBe('1:23 left');

    // An empty answer is not sent (it would use up the retry).
    await submit(container);
    expect(container.textContent).toContain('Please answer the question.');
    expect(api.identityCalls().filter((call) => call.method === 'POST')).toEqual([]);

    await typeAnswer(container, 'wrong');
    await submit(container);
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'That answer does not match our records. Please answer this question instead.',
    );
    expect(container.querySelector('label')?.textContent).toBe('What is the ZIP code of your address?');
    expect(container.querySelector<HTMLInputElement>('input[name="identity-answer"]')?.value).toBe('');
    expect(container.querySelector('[role="timer"]')?.textContent).toBe('1:30 left');

    await typeAnswer(container, '93721');
    await submit(container);
    expect(dialog.open).toBe(false);
    expect(api.identityCalls().filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: `${CHECK_URL}/11`, body: { answer: 'wrong' } },
      { method: 'POST', url: `${CHECK_URL}/12`, body: { answer: '93721' } },
    ]);
  });

  it("offers the court question's four choices as radio buttons", async () => {
    const choices = ['North Court', 'South Court', 'East Court', 'West Court'];
    answerIdentity(true, () => ({
      status: 200,
      body: { check: check({ source: 'court', question_key: 'court', choices }), locked: null },
    }));
    const container = renderDialog();
    await settled();
    expect(container.querySelector('legend')?.textContent).toBe('Which court sent you to traffic school?');
    const radios = [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(radios.map((radio) => radio.value)).toEqual(choices);
    expect(radios.every((radio) => radio.closest('label') !== null)).toBe(true);
  });

  it('says the course is locked until a time when the time runs out on the last chance', async () => {
    let state: IdentityCheckState = { check: check({ seconds_left: 1 }), locked: null };
    answerIdentity(true, () => ({ status: 200, body: state }));
    const container = renderDialog();
    await settled();
    expect(container.querySelector('[role="timer"]')?.textContent).toBe('0:01 left');
    state = { check: null, locked: { until: '2026-11-23T15:00:00Z', reason: 'missed_identity_checks' } };
    act(() => vi.advanceTimersByTime(1000));
    await settled();
    expect(dialogOf(container).open).toBe(true);
    expect(container.textContent).toContain('Course locked');
    expect(container.textContent).toMatch(/Your course is locked until .*2026.* because identity checks were missed\./);
  });

  it('asks a student locked until an admin unlocks to contact the school, at its support address', async () => {
    answerIdentity(true, () => ({
      status: 200,
      body: { check: null, locked: { until: null, reason: 'missed_identity_checks' } },
    }));
    const container = renderDialog();
    await settled();
    expect(container.textContent).toContain('Your course is locked. Please contact the school to unlock it.');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('mailto:help@school.example');
    await click(buttonNamed(container, 'Close'));
    await settled();
    expect(dialogOf(container).open).toBe(false);
  });
});
