import Fastify from 'fastify';
import { serializerCompiler as zodSerializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSerializerCompiler } from './serializer.ts';

const Answer = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable() });

/** A server answering `body` on GET /thing through the given serializer. */
async function answering(body: unknown, verify: boolean) {
  const app = Fastify();
  app.setSerializerCompiler(createSerializerCompiler({ verify }));
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/thing', { schema: { response: { 200: Answer } } }, async () => body as never);
  const response = await app.inject({ method: 'GET', url: '/thing' });
  await app.close();
  return response;
}

describe('answers serialised from the contract (fast-json-stringify, decision 027)', () => {
  it('writes exactly what zod would, and nothing the schema leaves out', async () => {
    const body = { id: 7, name: 'Ana', note: null, passwordHash: 'secret', internal: { token: 'x' } };
    const response = await answering(body, false);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(zodSerializerCompiler({ schema: Answer, method: 'GET', url: '/thing' } as never)(body));
    expect(response.body).not.toMatch(/secret|token/);
  });

  it('fails an answer that breaks the contract when verifying (tests), as zod did', async () => {
    const response = await answering({ id: 'seven', name: 'Ana', note: null }, true);
    expect(response.statusCode).toBe(500);
  });

  it('keeps zod for a schema that writes something other than what the handler answers (a codec)', async () => {
    const app = Fastify();
    app.setSerializerCompiler(createSerializerCompiler({ verify: false }));
    const centsAsText = z.codec(z.string(), z.number().int(), {
      decode: (text) => Number(text),
      encode: (cents) => String(cents),
    });
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/price', { schema: { response: { 200: z.object({ cents: centsAsText }) } } }, async () => ({
        cents: 2500,
      }));
    const response = await app.inject({ method: 'GET', url: '/price' });
    await app.close();
    expect(response.json()).toEqual({ cents: '2500' });
  });
});
