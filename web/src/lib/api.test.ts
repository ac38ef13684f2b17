// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressApi } from '@ts/contract';
import { ApiError, callApi, gotNoAnswerFromApi, NetworkError, shouldSignOutAfter } from './api.ts';

/** What a call to the completed-chapters endpoint throws when fetch behaves as `fetchImpl`. */
async function failureOf(fetchImpl: () => Promise<Response>): Promise<unknown> {
  vi.stubGlobal('fetch', vi.fn(fetchImpl));
  return callApi(progressApi.completedChapters, { params: { id: 3 } }).then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => error,
  );
}

const answer =
  (status: number, body: string, type = 'application/json') =>
  () =>
    Promise.resolve(new Response(body, { status, headers: { 'content-type': type } }));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('which failed calls sign the student out (spec 8, decision 015)', () => {
  it('a call the browser aborted (a reload) is no answer and keeps the student signed in', async () => {
    const error = await failureOf(() => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')));
    expect(error).toBeInstanceOf(NetworkError);
    expect(gotNoAnswerFromApi(error)).toBe(true);
    expect(shouldSignOutAfter(error)).toBe(false);
  });

  it('a network error (Failed to fetch) is no answer and keeps the student signed in', async () => {
    const error = await failureOf(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
    expect(shouldSignOutAfter(error)).toBe(false);
  });

  it("the server's 401 signs the student out", async () => {
    const error = await failureOf(
      answer(401, JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } })),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(shouldSignOutAfter(error)).toBe(true);
  });

  it("the server's own 500 answer signs the student out", async () => {
    const error = await failureOf(
      answer(500, JSON.stringify({ error: { code: 'INTERNAL', message: 'Something went wrong.' } })),
    );
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL', fromApi: true });
    expect(shouldSignOutAfter(error)).toBe(true);
  });

  it("a proxy's 502 page while the server restarts is not the server's answer and keeps the student signed in", async () => {
    const error = await failureOf(answer(502, '<html>Bad Gateway</html>', 'text/html'));
    expect(error).toMatchObject({ status: 502, code: 'UNKNOWN', fromApi: false });
    expect(gotNoAnswerFromApi(error)).toBe(true);
    expect(shouldSignOutAfter(error)).toBe(false);
  });

  it('a refusal the server answered (409) is no reason to sign out', async () => {
    const error = await failureOf(
      answer(409, JSON.stringify({ error: { code: 'NO_OPEN_ATTEMPT', message: 'Already submitted.' } })),
    );
    expect(error).toMatchObject({ status: 409, fromApi: true });
    expect(gotNoAnswerFromApi(error)).toBe(false);
    expect(shouldSignOutAfter(error)).toBe(false);
  });
});

describe('error bodies are read with the contract (decision 018)', () => {
  it("reads a code's details with its own schema", async () => {
    const error = await failureOf(
      answer(
        409,
        JSON.stringify({ error: { code: 'ATTEMPT_WAIT', message: 'Later.', opens_at: '2027-01-23T10:00:00Z' } }),
      ),
    );
    expect(error).toMatchObject({ status: 409, code: 'ATTEMPT_WAIT', details: { opens_at: '2027-01-23T10:00:00Z' } });
  });

  it('takes a code this build does not know, or details of the wrong shape, as UNKNOWN but still from the API', async () => {
    const unknown = await failureOf(answer(409, JSON.stringify({ error: { code: 'NEWER_CODE', message: 'New.' } })));
    expect(unknown).toMatchObject({ status: 409, code: 'UNKNOWN', fromApi: true });
    const wrongShape = await failureOf(
      answer(409, JSON.stringify({ error: { code: 'DUPLICATE_ACCOUNT', message: 'Taken.', studentId: 'seven' } })),
    );
    expect(wrongShape).toMatchObject({ status: 409, code: 'UNKNOWN', fromApi: true });
  });

  it("keeps the request's id the body names, apart from the code's details (decision 060)", async () => {
    const error = await failureOf(
      answer(
        500,
        JSON.stringify({ error: { code: 'INTERNAL', message: 'Something went wrong.', requestId: 'req-42' } }),
      ),
    );
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL', requestId: 'req-42', details: {} });
  });

  it('takes the id from the x-request-id header when the body is not the API speaking', async () => {
    const error = await failureOf(() =>
      Promise.resolve(
        new Response('<html>Bad Gateway</html>', {
          status: 502,
          headers: { 'content-type': 'text/html', 'x-request-id': 'edge-7' },
        }),
      ),
    );
    expect(error).toMatchObject({ status: 502, fromApi: false, requestId: 'edge-7' });
  });
});
