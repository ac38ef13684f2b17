import { ALL_ENDPOINTS } from '@ts/contract';
import type { Endpoint } from '@ts/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { selectRows } from './rows.ts';

/**
 * The contract fuzz (decision 016): every endpoint the contract declares, and the few raw routes
 * outside it, sent bad values field by field. See contract-fuzz.test.ts for what is asserted.
 */

export type Location = 'params' | 'query' | 'body';

/** A route to walk: a contract endpoint, or a raw route described here with schemas of its own. */
export interface FuzzRoute {
  key: string;
  method: Endpoint['method'];
  path: string;
  params?: z.ZodType | undefined;
  query?: z.ZodType | undefined;
  body?: z.ZodType | undefined;
  /** Takes a request body (a JSON body, or the webhook's raw bytes) even without a body schema. */
  takesBody: boolean;
}

/**
 * The routes under /api that are not contract endpoints, with the inputs they read: the signed
 * certificate download (a PDF, not JSON), the payment provider's webhook (raw bytes, for the
 * signature), the OpenAPI document and an email template's HTML for the preview frame.
 */
export const RAW_ROUTES: readonly FuzzRoute[] = [
  {
    key: 'GET /api/certificates/:number/pdf',
    method: 'GET',
    path: '/api/certificates/:number/pdf',
    params: z.object({ number: z.string() }),
    query: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
    takesBody: false,
  },
  {
    key: 'POST /api/public/payment/webhook',
    method: 'POST',
    path: '/api/public/payment/webhook',
    body: z.object({
      id: z.string(),
      type: z.string(),
      data: z.object({ object: z.object({ id: z.string(), metadata: z.object({ studentId: z.string() }) }) }),
    }),
    takesBody: true,
  },
  { key: 'GET /api/docs', method: 'GET', path: '/api/docs', takesBody: false },
  // An email template's HTML as a document for the preview frame (decision 057).
  {
    key: 'GET /api/admin/emails/:name/html',
    method: 'GET',
    path: '/api/admin/emails/:name/html',
    params: z.object({ name: z.string() }),
    query: z.object({ language: z.enum(['en', 'es']).optional() }),
    takesBody: false,
  },
];

export function fuzzRoutes(): FuzzRoute[] {
  const fromContract = ALL_ENDPOINTS.map((endpoint): FuzzRoute => ({
    key: `${endpoint.method} ${endpoint.path}`,
    method: endpoint.method,
    path: endpoint.path,
    params: endpoint.params,
    query: endpoint.query,
    body: endpoint.body,
    takesBody: endpoint.method !== 'GET',
  }));
  return [...fromContract, ...RAW_ROUTES].sort((a, b) => a.key.localeCompare(b.key));
}

// --- zod introspection ------------------------------------------------------------------------

/** The object inside optional/nullable/default/pipe wrappers, or undefined when there is none. */
export function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  if (!schema) return undefined;
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  const inner = unwrap(schema);
  return inner ? objectShape(inner) : undefined;
}

function unwrap(schema: z.ZodType): z.ZodType | undefined {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodNonOptional ||
    schema instanceof z.ZodCatch
  ) {
    return schema.def.innerType as z.ZodType;
  }
  if (schema instanceof z.ZodPipe) return schema.in as z.ZodType;
  if (schema instanceof z.ZodLazy) return schema.unwrap() as z.ZodType;
  return undefined;
}

/**
 * A value the schema accepts, built from its shape: the first enum member, a number at its
 * lower bound, a string of its minimum length. Fields with a pattern need a sample by name
 * (FieldSamples); a test of the walk checks the server accepts every route's sample.
 */
export function sampleFor(schema: z.ZodType): unknown {
  if (schema instanceof z.ZodObject) {
    return Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, child]) => [key, sampleFor(child)]),
    );
  }
  const inner = unwrap(schema);
  if (inner) return sampleFor(inner);
  if (schema instanceof z.ZodUnion) {
    const options = schema.options as z.ZodType[];
    const samples = options.map(sampleFor);
    return samples.find((value) => schema.safeParse(value).success) ?? samples[0];
  }
  if (schema instanceof z.ZodString) return 's'.repeat(Math.max(1, schema.minLength ?? 1));
  if (schema instanceof z.ZodNumber) return Math.max(1, schema.minValue ?? 1);
  if (schema instanceof z.ZodBoolean) return false;
  if (schema instanceof z.ZodEnum) return (schema.options as unknown[])[0];
  if (schema instanceof z.ZodLiteral) return [...(schema.values as Set<unknown>)][0];
  if (schema instanceof z.ZodNull) return null;
  if (schema instanceof z.ZodArray) {
    // As many elements as the array must have (a question's answers: at least two).
    const checks = (schema.def.checks ?? []) as { _zod: { def: { check: string; minimum?: number } } }[];
    const minimum = checks.find((check) => check._zod.def.check === 'min_length')?._zod.def.minimum ?? 1;
    return Array.from({ length: Math.max(1, minimum) }, () => sampleFor(schema.element as z.ZodType));
  }
  return 's';
}

/**
 * What a field takes, for choosing its bad values: JSON numbers, text read as a number (a
 * coercing schema), text, or anything else.
 */
export type FieldKind = 'number' | 'numeric text' | 'text' | 'other';

/** A field of a request: where it travels, its path in the object (nested for bodies), its schema. */
export interface FuzzField {
  location: Location;
  path: (string | number)[];
  schema: z.ZodType;
}

/**
 * Every field of the route's params, query and body. A body's nested objects, and the first
 * element of an array of objects, are walked too (scoreQuiz's questions[0].answer), as are the
 * objects themselves (a field is also sent bad values as a whole).
 */
export function fieldsOf(route: FuzzRoute): FuzzField[] {
  const fields: FuzzField[] = [];
  const visit = (location: Location, path: (string | number)[], schema: z.ZodType) => {
    fields.push({ location, path, schema });
    if (location !== 'body') return;
    const shape = objectShape(schema);
    if (shape) for (const [key, child] of Object.entries(shape)) visit(location, [...path, key], child);
    const element = arrayElement(schema);
    if (element && objectShape(element)) visit(location, [...path, 0], element);
  };
  for (const location of ['params', 'query', 'body'] as const) {
    for (const [key, schema] of Object.entries(objectShape(route[location]) ?? {})) visit(location, [key], schema);
  }
  return fields;
}

function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  if (schema instanceof z.ZodArray) return schema.element as z.ZodType;
  const inner = unwrap(schema);
  return inner ? arrayElement(inner) : undefined;
}

export function kindOf(schema: z.ZodType): FieldKind {
  if (schema instanceof z.ZodNumber) return (schema.def as { coerce?: boolean }).coerce ? 'numeric text' : 'number';
  if (schema instanceof z.ZodString) return 'text';
  if (schema instanceof z.ZodUnion) return kindOf((schema.options as z.ZodType[])[0]!);
  const inner = unwrap(schema);
  return inner ? kindOf(inner) : 'other';
}

/** A copy of the value with the path set (MISSING leaves the key out when sent). */
export function withValueAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  const container: Record<string | number, unknown> = Array.isArray(value)
    ? ([...value] as Record<number, unknown>)
    : { ...(value as Record<string, unknown>) };
  container[head] = withValueAt(container[head], rest, replacement);
  return container;
}

// --- valid-looking requests -------------------------------------------------------------------

/** The records the walk's valid-looking requests point at, so a bad value in one field reaches deep. */
export interface FuzzFixtures {
  /** The paid student who is one of the callers; every student id points at them. */
  studentId: number;
  /** The super_admin who is one of the callers (a password change names its own account). */
  superAdminId: number;
  /** A clerk nobody signs in as: staff-account calls point at them, never at the calling super_admin. */
  victimStaffId: number;
  courtId: number;
  countyId: number;
  chapterId: number;
  moduleId: number;
  questionId: number;
  answerId: number;
}

type Sample = (f: FuzzFixtures, n: number) => unknown;

/**
 * Valid-looking values by field name, then by route where a name means different things. Names
 * and licence numbers differ per request (n) so duplicate checks and sign-in throttles never
 * answer in place of the field under test; passwords are wrong so no fuzzed call changes one.
 */
const FieldSamples: Record<string, Sample> = {
  id: (f) => f.studentId,
  studentId: (f) => f.studentId,
  userId: (f) => f.studentId,
  chapterId: (f) => f.chapterId,
  chapter: (f) => f.chapterId,
  moduleId: (f) => f.moduleId,
  questionId: (f) => f.questionId,
  checkId: () => 1,
  attemptId: () => 1,
  court: (f) => f.courtId,
  court_id: (f) => f.courtId,
  courtId: (f) => f.courtId,
  countyId: (f) => f.countyId,
  first_name: () => 'Fuzz',
  last_name: (_f, n) => `Nobody${String(n)}`,
  email: (_f, n) => `fuzz${String(n)}@example.com`,
  dl_number: (_f, n) => `F${String(7_000_000 + n)}`,
  dob: () => '04/15/1990',
  court_due_date: () => '12/31/2026',
  address: () => '1 Main Street',
  city: () => 'Fresno',
  state: () => 'CA',
  zip: () => '93721',
  username: (_f, n) => `fuzz.nobody${String(n)}`,
  password: () => 'not the password 123',
  currentPw: () => 'not the password 123',
  newPw: () => 'another password 456',
  name: (_f, n) => `Fuzz Staff ${String(n)}`,
  token: () => 'f'.repeat(43),
  paymentIntent: () => 'pi_fuzz_0000',
  client_secret: () => 'pi_fuzz_0000_secret_0000',
  card_number: () => '4242424242424242',
  expiry: () => '12/30',
  cvc: () => '123',
  number: () => 'TS-0000-000000',
  searchTerm: () => 'Rivera',
  completionDate: () => '2026-11-20',
  from: () => '2026-01-01',
  to: () => '2026-12-31',
  noEmail: () => '1',
  content: () => 'A fuzzed answer',
  answer: () => 'Fresno',
  questions: (f) => [{ question: f.questionId, answer: f.answerId }],
  page: () => 1,
  expires: () => '1900000000',
  signature: () => 'f'.repeat(64),
};

const RouteSamples: Record<string, Sample> = {
  'PUT /api/admin/users/:id params.id': (f) => f.victimStaffId,
  'POST /api/admin/users/:id/set-password-link params.id': (f) => f.victimStaffId,
  'POST /api/admin/change-password body.userId': (f) => f.superAdminId,
  'GET /api/admin/questions/:id params.id': (f) => f.questionId,
  'POST /api/admin/edit/question/:id params.id': (f) => f.questionId,
  'POST /api/admin/edit/answer/:id params.id': (f) => f.answerId,
  'POST /api/admin/deliveries/:id/resend params.id': () => 1,
  'GET /api/test-provider/payment_intents/:id params.id': () => 'pi_fuzz_0000',
  'POST /api/test-provider/payment_intents/:id/confirm params.id': () => 'pi_fuzz_0000',
  'GET /api/students/archivedata/:id params.id': () => 'S1234567',
  'GET /api/admin/emails/:name params.name': () => 'court-receipt',
  'GET /api/admin/emails/:name/html params.name': () => 'court-receipt',
  'POST /api/public/payment/webhook body.id': () => 'evt_fuzz',
  'POST /api/public/payment/webhook body.type': () => 'payment_intent.succeeded',
  'PUT /api/admin/users/:id body.disabled': () => false,
  'PUT /api/admin/users/:id body.role': () => 'clerk',
  'POST /api/admin/users body.role': () => 'clerk',
  'POST /api/admin/users body.court_id': () => null,
  'PUT /api/admin/users/:id body.court_id': () => null,
  // Five different personal questions (decision 050): a sample's one-item list would be refused.
  'PUT /api/students/:id/personal-questions body.answers': () =>
    ['first_car_make', 'birth_city', 'first_pet_name', 'first_job', 'first_concert'].map((key) => ({
      key,
      answer: 'Fresno',
    })),
};

export interface FuzzRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The JSON body, or NO_BODY. */
  body: unknown;
}

export const NO_BODY = Symbol('no body');
/** A field left out of the request. */
export const MISSING = Symbol('missing');

function sampleField(
  route: FuzzRoute,
  location: Location,
  field: string,
  schema: z.ZodType,
  f: FuzzFixtures,
  n: number,
) {
  const sample = RouteSamples[`${route.key} ${location}.${field}`] ?? FieldSamples[field];
  return sample ? sample(f, n) : sampleFor(schema);
}

function sampleObject(route: FuzzRoute, location: Location, f: FuzzFixtures, n: number): Record<string, unknown> {
  const shape = objectShape(route[location]) ?? {};
  return Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => [field, sampleField(route, location, field, schema, f, n)]),
  );
}

/** A request every schema of the route accepts; the walk then spoils one field at a time. */
export function validLookingRequest(route: FuzzRoute, f: FuzzFixtures, n: number): FuzzRequest {
  const params = sampleObject(route, 'params', f, n);
  const query = sampleObject(route, 'query', f, n);
  let body: unknown = NO_BODY;
  if (route.body) body = objectShape(route.body) ? sampleObject(route, 'body', f, n) : sampleFor(route.body);
  return { params: stringify(params), query: stringify(query), body };
}

/** Params and query fields travel as text. */
function stringify(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

// --- bad values -------------------------------------------------------------------------------

/** A path segment sent as it is, not URL-encoded (broken percent-encoding). */
export class RawSegment {
  constructor(readonly text: string) {}
}

const LONG = 'x'.repeat(100_000);

/** Text the database or the code may choke on, in any text field. */
const BAD_PLAIN_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u202C',
  '\uD800',
  '\uFEFF1',
  '１', // a fullwidth digit
  "'; select 1; --",
  '%00',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'null',
  'true',
  '[]',
  LONG,
];

/** Text a number parser may choke on or read as more than an id can be. */
const BAD_NUMERIC_TEXT = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e99',
  '1e-99',
  '0xffffffff',
  '0x7fffffff',
  '2147483647',
  '2147483648',
  '-2147483649',
  '99999999999',
  '9007199254740993',
  ' 1 ',
];

/** Text for a field read as text that may be a number: params, query fields, coercing body fields. */
const BAD_TEXT = [...BAD_PLAIN_TEXT, ...BAD_NUMERIC_TEXT];

/** Numbers a JSON number field may choke on: out of PostgreSQL's integer, fractions, extremes. */
const BAD_NUMBERS: unknown[] = [
  -1,
  0,
  -0.5,
  1.5,
  2147483648,
  -2147483649,
  99999999999,
  4294967295,
  2 ** 53 + 2,
  1e308,
  -1e308,
  5e-324,
];

/** Values of the wrong type for any field, prototype keys and a missing field among them. */
const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  [],
  [1],
  [null],
  {},
  { value: 1 },
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown,
  MISSING,
];

/**
 * Bad JSON values for a body field, by what it takes: a number field gets every bad number
 * and a few texts, a text field every bad text and a few numbers, any field the wrong types.
 */
const BAD_JSON: Record<FieldKind, unknown[]> = {
  number: [...BAD_NUMBERS, ...WRONG_TYPES, '', '1', '2147483648', 'NaN', '\u0000', LONG],
  'numeric text': [...BAD_TEXT, ...BAD_NUMBERS, ...WRONG_TYPES],
  text: [...BAD_PLAIN_TEXT, ...WRONG_TYPES, 'NaN', '2147483648', -1, 1.5, 1e308],
  other: [...WRONG_TYPES, '', '1', 'true', '\u0000', LONG, -1, 0, 1, 2147483648],
};

/** Bad path segments: text (URL-encoded when sent) and broken percent-encoding. */
const BAD_SEGMENTS: unknown[] = [
  ...BAD_TEXT,
  new RawSegment('%'),
  new RawSegment('%ZZ'),
  new RawSegment('%C0%80'),
  new RawSegment('%00'),
  new RawSegment('..'),
];

/** Bad query values: text, repeated keys (arrays) and a missing field. */
const BAD_QUERY: unknown[] = [...BAD_TEXT, ['1', '2'], ['\u0000'], [], MISSING];

const randomText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
  fc.nat().map((n) => `0x${n.toString(16)}`),
  fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => `${a}\u0000${b}`),
);

const randomJson = fc.oneof(
  randomText,
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc
    .dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'), fc.jsonValue({ maxDepth: 2 }))
    .map((value) => JSON.parse(JSON.stringify(value)) as unknown),
);

/** A stable number from a text, so each field gets its own random values under the one seed. */
function hashSeed(seed: number, text: string): number {
  let hash = seed | 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * A few of the worst values, for a caller the route's access policy turns away: the refusal
 * must come before the value is looked at, so these are enough to show it does.
 */
const PROBES: Record<Location, unknown[]> = {
  params: ['\u0000', '2147483648', '0xffffffff', LONG],
  query: ['\u0000', '99999999999', ['1', '2'], LONG],
  body: ['\u0000', 99999999999, LONG, JSON.parse('{"__proto__":{"polluted":true}}') as unknown, MISSING],
};

/**
 * The values a field is sent: the fixed corpus, then `runs` values fast-check draws for it from
 * the seed (each field its own, by its label). A caller the route turns away gets PROBES only.
 */
export function badValues(
  field: FuzzField,
  label: string,
  options: { seed: number; runs: number; admitted: boolean },
): unknown[] {
  const { location } = field;
  if (!options.admitted) return PROBES[location];
  const fixed =
    location === 'params' ? BAD_SEGMENTS : location === 'query' ? BAD_QUERY : BAD_JSON[kindOf(field.schema)];
  if (options.runs === 0) return fixed;
  const arbitrary: fc.Arbitrary<unknown> =
    location === 'body' ? randomJson : location === 'query' ? fc.oneof(randomText, fc.array(randomText)) : randomText;
  return [...fixed, ...fc.sample(arbitrary, { seed: hashSeed(options.seed, label), numRuns: options.runs })];
}

/** Whole bodies: not an object, not JSON, not JSON's content type, too deep, too large. */
export interface RawBody {
  label: string;
  payload: string;
  contentType?: string;
}

export const BAD_BODIES: readonly RawBody[] = [
  { label: 'null', payload: 'null' },
  { label: 'an array', payload: '[]' },
  { label: 'an array of an object', payload: '[{}]' },
  { label: 'a string', payload: '"text"' },
  { label: 'a number', payload: '42' },
  { label: 'true', payload: 'true' },
  { label: 'an empty object', payload: '{}' },
  { label: 'a __proto__ key', payload: '{"__proto__":{"polluted":true}}' },
  { label: 'a constructor.prototype key', payload: '{"constructor":{"prototype":{"polluted":true}}}' },
  { label: 'a nested __proto__ key', payload: '{"a":{"b":{"__proto__":{"polluted":true}}}}' },
  { label: 'broken JSON', payload: '{"a":' },
  { label: 'an empty JSON body', payload: '' },
  { label: 'a raw NUL in JSON', payload: '{"a":"\u0000"}' },
  { label: 'arrays 5000 deep', payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
  { label: 'objects 5000 deep', payload: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` },
  { label: 'plain text', payload: 'studentId=1', contentType: 'text/plain' },
  { label: 'a form', payload: 'studentId=1', contentType: 'application/x-www-form-urlencoded' },
  { label: 'a body over the size limit', payload: JSON.stringify({ a: 'x'.repeat(300 * 1024) }) },
];

/** Whole query strings: prototype keys, and a key repeated with mixed values. */
export const BAD_QUERIES: readonly string[] = [
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'toString=1&hasOwnProperty=1',
  '%00=%00',
  '&&&=&=',
];

// --- sending ----------------------------------------------------------------------------------

function segment(value: unknown): string {
  if (value instanceof RawSegment) return value.text;
  return encode(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the three
 * bytes a careless encoder would write for it: invalid UTF-8 the server must refuse.
 */
function encode(text: string): string {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\uD800-\uDFFF]+|[\uD800-\uDFFF]/g, (part) => {
    if (part.length !== 1 || !/[\uD800-\uDFFF]/.test(part)) return encodeURIComponent(part);
    const unit = part.charCodeAt(0);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 63), 0x80 | (unit & 63)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  });
}

export function urlOf(route: FuzzRoute, request: FuzzRequest, extraQuery?: string): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => segment(request.params[name]));
  const parts: string[] = [];
  for (const [key, value] of Object.entries(request.query)) {
    if (value === MISSING || value === undefined) continue;
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    for (const one of values) {
      const text = typeof one === 'string' ? one : JSON.stringify(one);
      parts.push(`${encode(key)}=${encode(text)}`);
    }
  }
  if (extraQuery) parts.push(extraQuery);
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

export function jsonBody(body: unknown): string | undefined {
  if (body === NO_BODY) return undefined;
  return JSON.stringify(body, (_key, value: unknown) => (value === MISSING ? undefined : value));
}

export interface Sent {
  method: FuzzRoute['method'];
  url: string;
  payload?: string | undefined;
  contentType?: string | undefined;
  cookie?: string | undefined;
  remoteAddress: string;
}

export function send(app: FastifyInstance, sent: Sent): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (sent.cookie) headers.cookie = sent.cookie;
  if (sent.payload !== undefined) headers['content-type'] = sent.contentType ?? 'application/json';
  return app.inject({
    method: sent.method,
    url: sent.url,
    headers,
    remoteAddress: sent.remoteAddress,
    ...(sent.payload !== undefined ? { payload: sent.payload } : {}),
  });
}

let addressSequence = 0;

/**
 * A client address of its own for every fuzzed request (172.16.0.0/12, apart from the 10.0.x.y
 * the sign-in helpers use), so per-address limits never answer in place of the route.
 */
export function fuzzAddress(): string {
  addressSequence += 1;
  const n = addressSequence;
  return `172.${String(16 + ((n >> 16) & 15))}.${String((n >> 8) & 255)}.${String(n & 255)}`;
}

/** A short, printable form of a value for the failure list. */
export function describeValue(value: unknown): string {
  if (value === MISSING) return '(missing)';
  if (value instanceof RawSegment) return `raw ${value.text}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 40)}... (${String(text.length)} chars)` : text;
}

// --- watching the database ------------------------------------------------------------------

/**
 * Makes the test's own database count, per table, every row its committed transactions insert,
 * update or delete: a trigger on every table of the app (so a table added later is watched
 * too) bumps a counter in fuzz_writes. A transaction that rolls back rolls its counts back, so
 * a refusal that wrote and then undid it counts nothing. Reading the counters is one small
 * query, where comparing the tables themselves would scan them all after every request.
 */
export async function watchWrites(db: Db): Promise<string[]> {
  const rows = await selectRows(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const tables = rows.map((row) => String(row.name));
  await db.execute(sql`create table fuzz_writes (table_name text primary key, writes bigint not null)`);
  await db.execute(sql`
    create function fuzz_count_write() returns trigger language plpgsql as $$
    begin
      insert into fuzz_writes as w (table_name, writes) values (tg_table_name || ' ' || lower(tg_op), 1)
        on conflict (table_name) do update set writes = w.writes + 1;
      return null;
    end $$`);
  for (const table of tables) {
    await db.execute(
      sql`create trigger fuzz_count_write after insert or update or delete on ${sql.identifier(table)}
          for each row execute function fuzz_count_write()`,
    );
  }
  return tables;
}

/**
 * How many rows each table has had inserted, updated and deleted so far, keyed "students insert"
 * (what was never written is absent).
 */
export async function countWrites(db: Db): Promise<Map<string, string>> {
  const rows = await selectRows(db, sql`select table_name as name, writes::text as writes from fuzz_writes`);
  return new Map(rows.map((row) => [String(row.name), String(row.writes)]));
}

/** The writes ("students insert") between two countWrites. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((key) => before.get(key) !== after.get(key)).sort();
}
