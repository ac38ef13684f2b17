import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers ok when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('tells the web app the school’s name, support address, price and time zone before anyone signs in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      schoolName: 'Safe Roads Traffic School',
      supportEmail: 'support@example.com',
      coursePriceCents: 2995,
      schoolTimeZone: 'America/Los_Angeles',
    });
  });

  it('answers an unknown /api path with a JSON 404, never HTML', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-call' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Not found.', requestId: expect.any(String) as string },
    });
  });
});
