import { ALL_ENDPOINTS } from '@ts/contract';
import { PRODUCTION_WITHOUT_SERVICES } from './config.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutePolicies } from './plugins/endpoint.ts';
import { buildTestApp, type TestApp } from './testing/build-test-app.ts';
import { createStudent } from './testing/factories.ts';
import { signInStudent } from './testing/sign-in.ts';
import { signedInStaff } from './testing/course.ts';

interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<
    string,
    Record<string, { requestBody?: unknown; parameters?: { name: string }[]; responses?: Record<string, unknown> }>
  >;
}

describe('the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves every endpoint of the contract, each with a declared access policy', () => {
    const policies = listRoutePolicies(t.app);
    const endpoints = ALL_ENDPOINTS;
    expect(endpoints.length).toBeGreaterThan(5);
    for (const endpoint of endpoints) {
      expect(policies.get(`${endpoint.method} ${endpoint.path}`), `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(t.app.hasRoute({ method: endpoint.method, url: endpoint.path }), endpoint.path).toBe(true);
    }
  });

  it('serves the API under /api only', () => {
    for (const endpoint of ALL_ENDPOINTS) expect(endpoint.path).toMatch(/^\/api\//);
  });

  describe('GET /api/docs (outside production)', () => {
    it('answers the OpenAPI document without a session', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('application/json');
      const document = response.json<OpenApiDocument>();
      expect(document.openapi).toMatch(/^3\./);
      expect(document.info.title).toBe('Safe Roads Traffic School API');
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/login/student',
          '/api/login/admin',
          '/api/register/student',
          '/api/public/courts',
          '/api/students/resetcourse/{studentId}',
        ]),
      );
    });

    it('describes each call from its contract schema', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json<OpenApiDocument>();
      expect(JSON.stringify(document.paths['/api/login/student']?.post?.requestBody)).toContain('dl_number');
      expect(document.paths['/api/students/resetcourse/{studentId}']?.put?.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'studentId' })]),
      );
    });

    it('shows the errors each call answers, per status, with their details', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json<OpenApiDocument>();
      const responses = JSON.stringify(document.paths['/api/register/student']?.post?.responses);
      expect(responses).toContain('"409"');
      expect(responses).toContain('DUPLICATE_ACCOUNT');
      expect(responses).toContain('resetToken');
      expect(responses).toContain('VALIDATION_FAILED');
      const quiz = JSON.stringify(document.paths['/api/quiz/questions/{chapterId}']?.get?.responses);
      expect(quiz).toContain('"402"');
      expect(quiz).toContain('PAYMENT_REQUIRED');
      expect(quiz).toContain('ATTEMPT_WAIT');
      expect(quiz).toContain('opens_at');
    });

    it('does not list itself', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json<OpenApiDocument>();
      expect(document.paths).not.toHaveProperty('/api/docs');
    });
  });
});

describe('GET /api/docs in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { ...PRODUCTION_WITHOUT_SERVICES } });
  });
  afterAll(async () => {
    await t.close();
  });

  const docs = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/docs', ...(cookie ? { headers: { cookie } } : {}) });

  it('refuses a caller without a session with a JSON 401', async () => {
    const response = await docs();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Please sign in.', requestId: expect.any(String) as string },
    });
  });

  it('refuses a signed-in student', async () => {
    const student = await createStudent(t.db);
    const response = await docs(await signInStudent(t.app, student));
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('openapi');
  });

  it('answers the document to signed-in staff', async () => {
    const response = await docs((await signedInStaff(t, 'clerk')).cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json<OpenApiDocument>().paths).toHaveProperty('/api/login/student');
  });
});
