import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';

/** Decision 060: every answer names its request, and support finds the request's log lines by it. */

const idOf = (response: { headers: Record<string, unknown> }) => response.headers['x-request-id'];

describe('request ids behind a trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every answer an x-request-id, a new one per request', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/no-such-call' }),
      t.app.inject({ method: 'GET', url: '/api/me' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 401]);
    const ids = answers.map(idOf);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("keeps the proxy's id when it is well formed", async () => {
    for (const sent of ['a', 'proxy-7f3a.42_x', 'x'.repeat(64)]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': sent } });
      expect(idOf(response)).toBe(sent);
    }
  });

  it('replaces an id that is not well formed', async () => {
    for (const sent of ['', 'x'.repeat(65), 'two words', 'line\tbreak', 'quote"d', 'ünïcode', '../../etc']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': sent } });
      expect(idOf(response), sent).not.toBe(sent);
      expect(idOf(response)).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    }
  });

  it("names the request in an error's body with the id of its header", async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-request-id': 'support-case-1' } });
    expect(kept.statusCode).toBe(401);
    expect(kept.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Please sign in.', requestId: 'support-case-1' },
    });
    for (const refused of [
      await t.app.inject({ method: 'GET', url: '/api/no-such-call' }),
      await t.app.inject({ method: 'POST', url: '/api/login/student', payload: { last_name: 1 } }),
      await t.app.inject({
        method: 'POST',
        url: '/api/login/student',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      }),
    ]) {
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.json<{ error: { requestId: string } }>().error.requestId).toBe(idOf(refused));
    }
  });
});

describe('request ids with no trusted proxy (TRUST_PROXY=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('never takes the id a client sends: anyone could name their request after someone else’s', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'chosen-by-the-client' },
    });
    expect(idOf(response)).not.toBe('chosen-by-the-client');
    expect(idOf(response)).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  });
});

/** As logging.test.ts reads them: pino writes JSON lines through process.stdout. */
describe('the log lines of a request', () => {
  let t: TestApp;
  let stdout: MockInstance<typeof process.stdout.write>;
  const written: string[] = [];

  beforeAll(async () => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    t = await buildTestApp({ config: { LOG_LEVEL: 'info', TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t.close();
    stdout.mockRestore();
  });

  it('carry its id as reqId, the one its answer names', async () => {
    written.length = 0;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-me-1' },
    });
    expect(idOf(response)).toBe('trace-me-1');
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    const ofTheRequest = lines.filter((line) => line.reqId === 'trace-me-1');
    expect(ofTheRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });
});
