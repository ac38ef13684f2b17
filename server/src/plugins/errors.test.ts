import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { buildRegistration } from '../testing/factories.ts';
import { AppError, badRequest, forbidden, notFound, registerErrorHandler, tooManyRequests } from './errors.ts';
import { isDatabaseUnreachable } from '../db/errors.ts';

const INTERNAL = {
  error: { code: 'INTERNAL', message: 'Something went wrong.', requestId: expect.any(String) as string },
};

describe('errors from the real app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a malformed JSON body with a JSON 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      headers: { 'content-type': 'application/json' },
      payload: '{"last_name": "Rivera", "dl_number": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: expect.any(String) as string, requestId: expect.any(String) as string },
    });
  });

  it('answers a body of a type the API does not read with a JSON 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      headers: { 'content-type': 'application/xml' },
      payload: '<login><last_name>Rivera</last_name></login>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('BAD_REQUEST');
  });

  it('answers a body over 256 KiB with a JSON 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: { ...buildRegistration(), address: 'x'.repeat(300 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('BAD_REQUEST');
  });

  it('answers a request that breaks the schema with a 400 naming each field and its problem', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: 42 },
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json<{
      error: { code: string; message: string; fields: { field: string; message: string }[] };
    }>();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields.map((f) => f.field).sort()).toEqual(['password', 'username']);
    expect(error.message).toBe(error.fields[0]?.message);
  });

  it('answers a database failure with a 500 that shows no SQL, table name or stack', async () => {
    await t.db.execute(sql`alter table courts rename to courts_moved_away`);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/public/courts' });
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual(INTERNAL);
      expect(response.body).not.toMatch(/select|courts|at \w|\.ts:/i);
    } finally {
      await t.db.execute(sql`alter table courts_moved_away rename to courts`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/public/courts' })).statusCode).toBe(200);
  });
});

describe('registerErrorHandler', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    app.get('/app-error', () => {
      throw new AppError('DUPLICATE_ACCOUNT', 'Already there.', { studentId: 7 });
    });
    app.get('/helpers/:which', (request) => {
      const which = (request.params as { which: string }).which;
      if (which === 'bad') throw badRequest('Bad input.');
      if (which === 'forbidden') throw forbidden();
      if (which === 'missing') throw notFound();
      throw tooManyRequests('Slow down.');
    });
    app.get('/crash', () => {
      throw new Error(
        'duplicate key value violates unique constraint, query: select * from students where dl_number = $1',
      );
    });
    app.get('/crash-with-status', () => {
      throw Object.assign(new Error('upstream said: secret detail'), { statusCode: 503 });
    });
    app.get('/rate-limited', () => {
      throw Object.assign(new Error('Rate limit exceeded, retry in 1 minute'), { statusCode: 429 });
    });
    app.get('/bad-answer', { schema: { response: { 200: z.object({ id: z.number() }) } } }, () => ({
      id: 'not a number',
    }));
    app.get('/thrown-string', () => {
      // A dependency that throws something that is not an Error.
      throw 'select secret from students';
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('turns an AppError into its status and { error: { code, message, ...details } }', async () => {
    const response = await get('/app-error');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: {
        code: 'DUPLICATE_ACCOUNT',
        message: 'Already there.',
        studentId: 7,
        requestId: expect.any(String) as string,
      },
    });
  });

  it.each([
    ['bad', 400, { code: 'BAD_REQUEST', message: 'Bad input.' }],
    ['forbidden', 403, { code: 'FORBIDDEN', message: 'You are not allowed to do that.' }],
    ['missing', 404, { code: 'NOT_FOUND', message: 'Not found.' }],
    ['slow', 429, { code: 'TOO_MANY_REQUESTS', message: 'Slow down.' }],
  ])('answers the %s helper with its status and code', async (which, status, error) => {
    const response = await get(`/helpers/${which}`);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { ...error, requestId: expect.any(String) as string } });
  });

  it('answers an unexpected error with a plain 500 that leaks neither its message nor its stack', async () => {
    const response = await get('/crash');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual(INTERNAL);
  });

  it('does not pass on the message of a 5xx error from a dependency', async () => {
    const response = await get('/crash-with-status');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret detail');
  });

  it('answers something thrown that is not an Error with a plain 500 that does not repeat it', async () => {
    const response = await get('/thrown-string');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual(INTERNAL);
    expect(response.body).not.toContain('select secret');
  });

  it('answers a 429 from a plugin with the API’s own error shape', async () => {
    const response = await get('/rate-limited');
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({
      error: {
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many requests. Please wait and try again.',
        requestId: expect.any(String) as string,
      },
    });
  });

  it('answers an answer that does not match its own schema with a 500, not the bad data', async () => {
    const response = await get('/bad-answer');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual(INTERNAL);
  });
});

describe('a database that cannot be reached', () => {
  const pgError = (code: string, message = 'terminating connection due to administrator command') =>
    Object.assign(new Error(message), { code, severity: 'FATAL', routine: 'ProcessInterrupts' });

  it('is told apart from a statement that failed', () => {
    expect(isDatabaseUnreachable(pgError('57P01'))).toBe(true);
    expect(isDatabaseUnreachable(pgError('08006', 'connection failure'))).toBe(true);
    expect(
      isDatabaseUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    // Drizzle wraps the driver's error.
    expect(isDatabaseUnreachable(Object.assign(new Error('Failed query: select 1'), { cause: pgError('57P01') }))).toBe(
      true,
    );

    expect(isDatabaseUnreachable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnreachable(pgError('22012', 'division by zero'))).toBe(false);
    expect(isDatabaseUnreachable(new Error('Something else'))).toBe(false);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, in the words the page shows', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/api/down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const response = await app.inject({ method: 'GET', url: '/api/down' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.json()).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The school is reconnecting to its database. Your work is saved: please try again in a few seconds.',
        requestId: expect.any(String) as string,
      },
    });
    await app.close();
  });
});
