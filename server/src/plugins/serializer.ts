import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = Parameters<FastifySerializerCompiler<z.ZodType>>[0];

/**
 * Decision 027: a route's answer serialised by fast-json-stringify, compiled once from the
 * contract's zod schema as JSON Schema, in far less time than zod's encode and JSON.stringify on
 * every call. It writes only the properties the
 * schema declares, so nothing the contract leaves out reaches a client, as zod's stripping did.
 *
 * Only for a schema that reads the same in and out (no transform or codec: its JSON Schema for
 * input and output are equal); any other keeps zod. With `verify` (tests), every answer is also
 * encoded by zod, so one that breaks the contract still fails loudly (decision 027).
 */
export function createSerializerCompiler(options: { verify: boolean }): FastifySerializerCompiler<z.ZodType> {
  return (route: RouteSchema) => {
    const zodSerialize = zodSerializerCompiler(route);
    const fast = compileFast(route.schema);
    if (!fast) return zodSerialize;
    if (!options.verify) return fast;
    return (data: unknown) => {
      zodSerialize(data);
      return fast(data);
    };
  };
}

function compileFast(schema: unknown): ((data: unknown) => string) | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    const describe = (io: 'input' | 'output') =>
      z.toJSONSchema(schema, { io, unrepresentable: 'throw', target: 'draft-7' });
    const output = describe('output');
    // Output objects say additionalProperties: false, input ones not; anything else differing is a transform.
    const shape = (json: unknown) =>
      JSON.stringify(json, (key, value: unknown) => (key === 'additionalProperties' ? undefined : value));
    if (shape(output) !== shape(describe('input'))) return undefined;
    return fastJson(output as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    return undefined;
  }
}
