// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi, progressApi, quizApi, seatTimeApi } from '@ts/contract';
import { ApiError, callApi, reconnecting, retryDelayAfter, shouldSignOutAfter, WRITE_REPEATS } from './api.ts';
import { READ_RETRIES_WHILE_RECONNECTING, retryRead, retryReadDelay } from './queries.ts';

const UNAVAILABLE = JSON.stringify({
  error: { code: 'SERVICE_UNAVAILABLE', message: 'The school is reconnecting to its database.' },
});

/** The server's answer while its database is away (decision 061). */
const unavailable = (retryAfter = '3') =>
  new Response(UNAVAILABLE, {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  });
const saved = () =>
  new Response(JSON.stringify({ saved: true }), { status: 200, headers: { 'content-type': 'application/json' } });

/** What a call throws (or undefined when it succeeds). */
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

function reconnectingError(retryAfterSeconds?: number): ApiError {
  const error = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Reconnecting.');
  error.retryAfterSeconds = retryAfterSeconds;
  return error;
}

beforeEach(() => {
  reconnecting.set(false);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('an answer that the school is reconnecting (decision 061)', () => {
  it('is an ApiError with its Retry-After, and keeps the student signed in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(unavailable('3'))),
    );
    const error = await failureOf(callApi(authApi.me));
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', fromApi: true, retryAfterSeconds: 3 });
    expect(shouldSignOutAfter(error)).toBe(false);
  });

  it('raises the reconnecting flag, and the next answer the server gives lowers it', async () => {
    const answers = [unavailable(), new Response(JSON.stringify({ user: null }), { status: 200 })];
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(answers.shift()!)),
    );
    const changes: boolean[] = [];
    const unsubscribe = reconnecting.subscribe(() => changes.push(reconnecting.get()));
    await failureOf(callApi(authApi.me));
    expect(reconnecting.get()).toBe(true);
    await failureOf(callApi(authApi.me));
    expect(reconnecting.get()).toBe(false);
    expect(changes).toEqual([true, false]);
    unsubscribe();
  });

  it('is lowered by a refusal too (a 4xx is the server answering), but not by a failure', async () => {
    reconnecting.set(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response(JSON.stringify({ error: { code: 'INTERNAL', message: 'x' } }), { status: 500 })),
      ),
    );
    await failureOf(callApi(authApi.me));
    expect(reconnecting.get()).toBe(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'x' } }), { status: 401 }),
        ),
      ),
    );
    await failureOf(callApi(authApi.me));
    expect(reconnecting.get()).toBe(false);
  });
});

describe('the writes the client repeats by itself', () => {
  it("sends a module's completion again after Retry-After until the school answers", async () => {
    vi.useFakeTimers();
    const answers = [unavailable('2'), unavailable('2'), saved()];
    const fetchMock = vi.fn(() => Promise.resolve(answers.shift()!));
    vi.stubGlobal('fetch', fetchMock);
    const call = failureOf(callApi(progressApi.completeModule, { body: { studentId: 4, moduleId: 9 } }));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await call).toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(reconnecting.get()).toBe(false);
  });

  it(`gives up after ${String(WRITE_REPEATS)} repeats and lets the page say so`, async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(() => Promise.resolve(unavailable('1')));
    vi.stubGlobal('fetch', fetchMock);
    const call = failureOf(callApi(seatTimeApi.heartbeat, { body: { studentId: 4, moduleId: 9 } }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await call).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(fetchMock).toHaveBeenCalledTimes(1 + WRITE_REPEATS);
  });

  it("never repeats a quiz's score by itself: the student sends it again", async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(() => Promise.resolve(unavailable('1')));
    vi.stubGlobal('fetch', fetchMock);
    const call = failureOf(callApi(quizApi.score, { body: { studentId: 4, chapter: 1, attemptId: 1, questions: [] } }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await call).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe("react-query's retry policy for reads", () => {
  it('asks a read again while the school is reconnecting, up to its limit', () => {
    expect(retryRead(0, reconnectingError(3))).toBe(true);
    expect(retryRead(READ_RETRIES_WHILE_RECONNECTING - 1, reconnectingError(3))).toBe(true);
    expect(retryRead(READ_RETRIES_WHILE_RECONNECTING, reconnectingError(3))).toBe(false);
  });

  it('asks any other failure again once, as before', () => {
    const failed = new ApiError(500, 'INTERNAL', 'Something went wrong.');
    expect(retryRead(0, failed)).toBe(true);
    expect(retryRead(1, failed)).toBe(false);
    const bankTooSmall = new ApiError(503, 'QUESTION_BANK_TOO_SMALL', 'Too few questions.');
    expect(retryRead(1, bankTooSmall)).toBe(false);
  });

  it('waits what Retry-After says, within reason', () => {
    expect(retryReadDelay(0, reconnectingError(3))).toBe(3_000);
    expect(retryReadDelay(0, reconnectingError(0))).toBe(1_000);
    expect(retryReadDelay(0, reconnectingError(3_600))).toBe(10_000);
  });

  it('without Retry-After, waits one, two, four seconds, at most ten', () => {
    const failed = new ApiError(500, 'INTERNAL', 'Something went wrong.');
    expect([0, 1, 2, 5].map((failures) => retryReadDelay(failures, failed))).toEqual([1_000, 2_000, 4_000, 10_000]);
    expect(retryDelayAfter(1, new TypeError('Failed to fetch'))).toBe(1_000);
  });
});
