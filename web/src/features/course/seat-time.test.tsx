// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import type { SeatTimeStatus } from '@ts/contract';
import i18n from '../../lib/i18n.ts';
import { render, settled, stubApi, unmountAll } from '../../testing/page.tsx';
import { formatDuration } from '../../lib/durations.ts';
import {
  ChapterSeatTimeNotice,
  ModuleSeatTimeNotice,
  QuizSeatTimeRefusal,
  useSeatTimeHeartbeat,
} from './seat-time.tsx';

const NOT_REQUIRED: SeatTimeStatus = {
  required: false,
  module: { moduleId: 7, requiredSeconds: 0, countedSeconds: 0, remainingSeconds: 0 },
  chapter: { chapterId: 1, requiredSeconds: 0, countedSeconds: 0, remainingSeconds: 0 },
  course: { requiredSeconds: 0, countedSeconds: 0, remainingSeconds: 0 },
  todayCountedSeconds: 0,
  dailyCapSeconds: null,
  heartbeatSeconds: 30,
  identityCheckDue: false,
};

function timed(overrides: Partial<SeatTimeStatus> = {}): SeatTimeStatus {
  return {
    required: true,
    module: { moduleId: 7, requiredSeconds: 720, countedSeconds: 270, remainingSeconds: 450 },
    chapter: { chapterId: 1, requiredSeconds: 3000, countedSeconds: 270, remainingSeconds: 2730 },
    course: { requiredSeconds: 14_400, countedSeconds: 270, remainingSeconds: 14_130 },
    todayCountedSeconds: 270,
    dailyCapSeconds: null,
    heartbeatSeconds: 30,
    identityCheckDue: false,
    ...overrides,
  };
}

/** Answers the seat-time calls with `status`; records every call as "METHOD url". */
function answerSeatTime(status: SeatTimeStatus) {
  const api = stubApi(() => ({ body: status }));
  return () => api.requests().map(({ method, url }) => `${method} ${url}`);
}

function ModuleHarness() {
  const heartbeat = useSeatTimeHeartbeat(3, 7);
  return (
    <>
      <ModuleSeatTimeNotice heartbeat={heartbeat} />
      <button type="button" disabled={heartbeat.moduleTimeRequired}>
        Mark Complete
      </button>
    </>
  );
}

/** Renders and waits until every call is answered and shown. */
async function show(element: ReactNode): Promise<HTMLElement> {
  const page = render(element);
  await settled();
  return page;
}

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  unmountAll();
  await i18n.changeLanguage('en');
});

describe('seat time on the module page', () => {
  // The local countdown ticks only when a test says so.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });

  it('under a profile without minimums asks once, sends no heartbeat and shows nothing', async () => {
    const calls = answerSeatTime(NOT_REQUIRED);
    const page = await show(<ModuleHarness />);
    expect(calls()).toEqual(['GET /api/students/3/seat-time?moduleId=7']);
    expect(page.textContent).toBe('Mark Complete');
    expect(page.querySelector('button')?.disabled).toBe(false);
    expect(page.querySelector('[role="status"]')).toBeNull();
  });

  it('under a timed profile sends a heartbeat, shows the time still required and holds Mark Complete', async () => {
    const calls = answerSeatTime(timed());
    const page = await show(<ModuleHarness />);
    expect(calls()).toEqual(['GET /api/students/3/seat-time?moduleId=7', 'POST /api/students/heartbeat']);
    expect(page.textContent).toContain('Time still required in this module: 7 min 30 s');
    expect(page.querySelector('[role="status"]')?.textContent).toBe('Time still required in this module: 8 min');
    expect(page.querySelector('button')?.disabled).toBe(true);
  });

  it('opens Mark Complete once the server counts the module time as met', async () => {
    answerSeatTime(timed({ module: { moduleId: 7, requiredSeconds: 720, countedSeconds: 720, remainingSeconds: 0 } }));
    const page = await show(<ModuleHarness />);
    expect(page.querySelector('button')?.disabled).toBe(false);
    expect(page.textContent).not.toContain('Time still required');
    expect(page.querySelector('[role="status"]')?.textContent).toContain('has been counted');
  });

  it('sends no heartbeat while the page is hidden', async () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const calls = answerSeatTime(timed());
    await show(<ModuleHarness />);
    expect(calls()).toEqual(['GET /api/students/3/seat-time?moduleId=7']);
  });

  it("says when today's study limit is reached", async () => {
    answerSeatTime(timed({ dailyCapSeconds: 14_400, todayCountedSeconds: 14_400 }));
    const page = await show(<ModuleHarness />);
    expect(page.textContent).toContain(
      "You have reached today's study limit of 4 hours. Your time will count again tomorrow.",
    );
  });
});

describe('seat time before a quiz', () => {
  it("shows the chapter's time still required on the chapter page, and nothing without minimums", async () => {
    answerSeatTime(timed());
    const page = await show(<ChapterSeatTimeNotice studentId={3} chapterId={1} />);
    expect(page.textContent).toBe('Time still required in this chapter before its quiz: 46 min');
    unmountAll();
    answerSeatTime(NOT_REQUIRED);
    expect((await show(<ChapterSeatTimeNotice studentId={3} chapterId={1} />)).textContent).toBe('');
  });

  it("shows the server's remaining time instead of the final exam", async () => {
    const page = await show(<QuizSeatTimeRefusal chapterId={6} remainingSeconds={1800} />);
    expect(page.textContent).toContain('Time still required in the course before the final exam: 30 min');
  });
});

describe('formatDuration', () => {
  it('writes hours, minutes and seconds in the page language', async () => {
    const t = i18n.t.bind(i18n);
    expect(formatDuration(450, t)).toBe('7 min 30 s');
    expect(formatDuration(3900, t)).toBe('1 h 5 min');
    expect(formatDuration(0, t)).toBe('0 s');
    await i18n.changeLanguage('es');
    expect(i18n.t('seatTime.moduleRemaining', { time: formatDuration(60, i18n.t.bind(i18n)) })).toBe(
      'Tiempo que aún se requiere en este módulo: 1 min',
    );
  });
});
