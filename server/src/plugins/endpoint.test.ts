import { ANY_STAFF_ROLES, defineEndpoint } from '@ts/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listRoutePolicies, PAID_STUDENT, PUBLIC, serve, STUDENT, staffRoles } from './endpoint.ts';
import { AppError, notFound, registerErrorHandler } from './errors.ts';
import type { Auth } from './session.ts';
import { withCachingOn } from '../testing/with-caching.ts';

const DEFAULT_PROFILE = { id: 'default', version: 1 };
const person = { name: 'Pat Doe', paymentAt: null, completedAt: null };
const student = (tokenHash: string, studentId: number, paid: boolean): Auth => ({
  kind: 'student',
  tokenHash,
  studentId,
  paid,
  profile: DEFAULT_PROFILE,
  progressVersion: 0,
  person,
});
const staffMember = (
  tokenHash: string,
  staffId: number,
  role: 'clerk' | 'admin' | 'super_admin',
  courtId: number | null,
): Auth => ({
  kind: 'staff',
  tokenHash,
  staffId,
  role,
  courtId,
  person,
});
const AS_STUDENT = student('h1', 11, false);
const AS_PAID_STUDENT = student('h4', 12, true);
const AS_CLERK = staffMember('h2', 21, 'clerk', null);
const AS_SUPER_ADMIN = staffMember('h3', 22, 'super_admin', null);
const AS_COURT_ADMIN = staffMember('h5', 23, 'admin', 7);
const AS_ADMIN = staffMember('h6', 24, 'admin', null);

const whoAmI = (path: string) => defineEndpoint({ method: 'GET', path, response: z.object({ who: z.string() }) });

const studentRow = defineEndpoint({
  method: 'GET',
  path: '/row/:id',
  params: z.object({ id: z.coerce.number().int().positive() }),
  query: z.object({ verbose: z.enum(['yes', 'no']).optional() }),
  response: z.object({ id: z.number(), first_name: z.string() }),
});

const createThing = defineEndpoint({
  method: 'POST',
  path: '/things',
  body: z.object({ name: z.string().min(1) }),
  response: z.object({ created: z.string() }),
  status: 201,
});

const removeThing = defineEndpoint({ method: 'DELETE', path: '/things/:id', response: z.null(), status: 204 });

const memoisedRow = defineEndpoint({
  method: 'GET',
  path: '/kept-row',
  response: z.object({ id: z.number(), first_name: z.string() }),
});
const keptRow = { id: 7, first_name: 'Ana', dl_number: 'D7654321' };

/**
 * `serve` on a bare Fastify instance: the caller is whatever the x-test-auth header names,
 * so each access policy can be tried with every kind of caller.
 */
describe('serve (one contract endpoint, its schemas and its access policy)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    const callers: Record<string, Auth> = {
      student: AS_STUDENT,
      paid_student: AS_PAID_STUDENT,
      clerk: AS_CLERK,
      super_admin: AS_SUPER_ADMIN,
      court_admin: AS_COURT_ADMIN,
      admin: AS_ADMIN,
    };
    app.decorateRequest('getAuth', function (this: FastifyRequest) {
      const name = this.headers['x-test-auth'];
      return Promise.resolve(typeof name === 'string' ? (callers[name] ?? null) : null);
    });

    serve(app, whoAmI('/public'), PUBLIC, async ({ request }) => ({
      who: (await request.getAuth())?.kind ?? 'nobody',
    }));
    serve(app, whoAmI('/student'), STUDENT, async ({ auth }) => ({ who: `student ${String(auth.studentId)}` }));
    serve(app, whoAmI('/course'), PAID_STUDENT, async ({ auth }) => ({
      who: `paid student ${String(auth.studentId)}`,
    }));
    serve(app, whoAmI('/staff'), staffRoles(...ANY_STAFF_ROLES), async ({ auth }) => ({ who: auth.role }));
    serve(app, whoAmI('/super'), staffRoles('super_admin'), async ({ auth }) => ({ who: auth.role }));
    serve(app, whoAmI('/admins'), staffRoles('super_admin', 'admin'), async ({ auth }) => ({ who: auth.role }));
    serve(app, studentRow, PUBLIC, async ({ params, query }) => ({
      id: params.id,
      first_name: query.verbose === 'yes' ? 'Maria (verbose)' : 'Maria',
      // A column the answer does not declare: the schema must strip it.
      dl_number: 'D1234567',
    }));
    serve(app, createThing, PUBLIC, async ({ body }) => ({ created: body.name }));
    serve(app, removeThing, PUBLIC, async () => undefined);
    // The same object on every call while it is the same answer, as a reloaded quiz.
    serve(app, memoisedRow, PUBLIC, async () => keptRow, { memoisedAnswer: true });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string, caller?: string) =>
    app.inject({ method: 'GET', url, ...(caller ? { headers: { 'x-test-auth': caller } } : {}) });

  it('records the access policy of every route it serves', () => {
    const policies = listRoutePolicies(app);
    expect(policies.get('GET /public')).toEqual({ kind: 'public' });
    expect(policies.get('GET /student')).toEqual({ kind: 'student' });
    expect(policies.get('GET /course')).toEqual({ kind: 'paidStudent' });
    expect(policies.get('GET /super')).toEqual({ kind: 'staff', roles: ['super_admin'] });
    expect(policies.get('POST /things')).toEqual({ kind: 'public' });
  });

  it('lets anyone call a public route, and tells it who is calling', async () => {
    expect((await get('/public')).json()).toEqual({ who: 'nobody' });
    expect((await get('/public', 'student')).json()).toEqual({ who: 'student' });
  });

  it.each(['/student', '/course', '/staff', '/super'])(
    'refuses a caller without a session on %s with a 401',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'Please sign in.', requestId: expect.any(String) as string },
      });
    },
  );

  it('lets a student call a student route, and refuses staff there with a 403', async () => {
    expect((await get('/student', 'student')).json()).toEqual({ who: 'student 11' });
    const response = await get('/student', 'super_admin');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { code: 'FORBIDDEN', message: 'You are not allowed to do that.', requestId: expect.any(String) as string },
    });
  });

  it('lets a paid student call a course route, and refuses an unpaid one with a 402', async () => {
    expect((await get('/course', 'paid_student')).json()).toEqual({ who: 'paid student 12' });
    const unpaid = await get('/course', 'student');
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json()).toEqual({
      error: {
        code: 'PAYMENT_REQUIRED',
        message: 'Please pay for the course to continue.',
        requestId: expect.any(String) as string,
      },
    });
    expect((await get('/course', 'clerk')).statusCode).toBe(403);
  });

  it('lets any staff role call a staff route, and refuses a student there with a 403', async () => {
    expect((await get('/staff', 'clerk')).json()).toEqual({ who: 'clerk' });
    expect((await get('/staff', 'super_admin')).json()).toEqual({ who: 'super_admin' });
    expect((await get('/staff', 'student')).statusCode).toBe(403);
  });

  it('refuses a staff role the route does not name with a 403', async () => {
    expect((await get('/super', 'super_admin')).statusCode).toBe(200);
    expect((await get('/super', 'clerk')).statusCode).toBe(403);
  });

  it('treats an admin limited to one court as its own role, let in only where a route names it', async () => {
    expect((await get('/staff', 'court_admin')).json()).toEqual({ who: 'admin' });
    expect((await get('/admins', 'admin')).json()).toEqual({ who: 'admin' });
    expect((await get('/admins', 'court_admin')).statusCode).toBe(403);
  });

  it('hands the handler parsed params and query, and strips what the answer does not declare', async () => {
    const response = await get('/row/42?verbose=yes');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 42, first_name: 'Maria (verbose)' });
    expect(response.body).not.toContain('D1234567');
  });

  it('refuses params, query and body that break their schemas with a 400', async () => {
    expect((await get('/row/abc')).statusCode).toBe(400);
    expect((await get('/row/1?verbose=maybe')).statusCode).toBe(400);
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: [{ field: 'name' }] });
  });

  describe('with caching on', () => {
    withCachingOn();

    it('serialises a memoised answer once by its schema and sends that same text while the object lives', async () => {
      const first = await get('/kept-row');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(first.json()).toEqual({ id: 7, first_name: 'Ana' });
      expect(first.body).not.toContain('D7654321');
      // The handler promises the same object means the same answer; its kept text is what is sent.
      keptRow.first_name = 'Changed after it was sent';
      const second = await get('/kept-row');
      expect(second.body).toBe(first.body);
    });
  });

  it('answers with the endpoint’s own success status', async () => {
    const created = await app.inject({ method: 'POST', url: '/things', payload: { name: 'box' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ created: 'box' });

    const removed = await app.inject({ method: 'DELETE', url: '/things/1' });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
  });
});

describe('the errors an endpoint declares (decision 018)', () => {
  const lookup = defineEndpoint({
    method: 'GET',
    path: '/lookup/:which',
    params: z.object({ which: z.string() }),
    errors: ['NOT_FOUND'],
    response: z.object({ ok: z.boolean() }),
  });

  async function appThatAnswers(refuseUndeclaredErrors: boolean): Promise<FastifyInstance> {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app, { refuseUndeclaredErrors });
    app.decorateRequest('getAuth', function (this: FastifyRequest) {
      return Promise.resolve(this.headers['x-test-auth'] === 'student' ? AS_STUDENT : null);
    });
    serve(app, lookup, STUDENT, async ({ params }) => {
      if (params.which === 'missing') throw notFound('No such thing.');
      if (params.which === 'locked') throw new AppError('COURSE_LOCKED', 'Locked.', { until: null, reason: 'x' });
      return { ok: true };
    });
    await app.ready();
    return app;
  }
  const asStudent = { 'x-test-auth': 'student' };

  it('answers a declared code, and those of its access policy, as they are', async () => {
    const app = await appThatAnswers(true);
    const missing = await app.inject({ method: 'GET', url: '/lookup/missing', headers: asStudent });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No such thing.', requestId: expect.any(String) as string },
    });
    expect((await app.inject({ method: 'GET', url: '/lookup/missing' })).json().error.code).toBe('UNAUTHENTICATED');
    await app.close();
  });

  it('in tests, turns a code the contract does not declare into a 500 that names the route and the code', async () => {
    const app = await appThatAnswers(true);
    const response = await app.inject({ method: 'GET', url: '/lookup/locked', headers: asStudent });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.message).toBe(
      'GET /lookup/:which answered COURSE_LOCKED, which its contract does not declare.',
    );
    await app.close();
  });

  it('outside tests, still answers an undeclared code as it is', async () => {
    const app = await appThatAnswers(false);
    const response = await app.inject({ method: 'GET', url: '/lookup/locked', headers: asStudent });
    expect(response.statusCode).toBe(423);
    expect(response.json()).toEqual({
      error: {
        code: 'COURSE_LOCKED',
        message: 'Locked.',
        until: null,
        reason: 'x',
        requestId: expect.any(String) as string,
      },
    });
    await app.close();
  });
});
