import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ERROR_STATUS,
  errorBodySchema,
  type ErrorCode,
  policyRoleOf,
  type Endpoint,
  type PolicyRole,
} from '@ts/contract';
import { forbidden, paymentRequired, unauthenticated, validationFailed } from './errors.ts';
import type { Auth } from './session.ts';
import { createDerivedCache } from '../platform/caches.ts';

/**
 * Who may call a route. Every route declares one (there is no default), so a new route
 * cannot be left open by accident.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'student' }
  | { kind: 'paidStudent' }
  | { kind: 'signedIn' }
  | { kind: 'staff'; roles: readonly PolicyRole[] };

/**
 * The role a staff member acts in for access decisions: an admin or clerk limited to one court is
 * its own role ('court_admin', 'court_clerk'), so a route lets them in only when it names them
 * (decision 011). Their court scope is then enforced by the handler's policy. The rule lives in
 * the contract so the admin pages hide exactly what the server refuses.
 */
export { policyRoleOf, type PolicyRole };

export const PUBLIC = { kind: 'public' } as const satisfies Access;
export const STUDENT = { kind: 'student' } as const satisfies Access;
/** A signed-in student who has paid: every course call (402 otherwise). */
export const PAID_STUDENT = { kind: 'paidStudent' } as const satisfies Access;
/** Any session, student or staff; the handler's policy decides the rest (a route both use). */
export const SIGNED_IN = { kind: 'signedIn' } as const satisfies Access;
export const staffRoles = (...roles: PolicyRole[]) => ({ kind: 'staff', roles }) as const satisfies Access;

type Out<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.output<NonNullable<T>>
    : undefined;
type AuthFor<A extends Access> = A extends { kind: 'student' } | { kind: 'paidStudent' }
  ? Extract<Auth, { kind: 'student' }>
  : A extends { kind: 'staff' }
    ? Extract<Auth, { kind: 'staff' }>
    : A extends { kind: 'signedIn' }
      ? Auth
      : // A public route does not look the session up; the few that care call request.getAuth().
        undefined;

export interface HandlerContext<E extends Endpoint, A extends Access> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  auth: AuthFor<A>;
  request: FastifyRequest;
  reply: FastifyReply;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every error code the route answers (serve fills it from the contract and the access policy). */
    errors?: readonly ErrorCode[];
  }
}

/** What any call may answer: its own faults (bad JSON, a failed validation), the rate limit, a failure. */
const ANY_CALL_ERRORS: readonly ErrorCode[] = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
];

/** What an access policy answers before the handler runs (authorize below). */
function accessErrors(access: Access): readonly ErrorCode[] {
  switch (access.kind) {
    case 'public':
      return [];
    case 'paidStudent':
      return ['UNAUTHENTICATED', 'FORBIDDEN', 'PAYMENT_REQUIRED'];
    default:
      return ['UNAUTHENTICATED', 'FORBIDDEN'];
  }
}

/** Every error code a route answers: any call's, its access policy's, and those its contract declares. */
export function answeredErrors(endpoint: Endpoint, access: Access): ErrorCode[] {
  return [...new Set([...ANY_CALL_ERRORS, ...accessErrors(access), ...(endpoint.errors ?? [])])];
}

/**
 * The OpenAPI document's transform: the zod schemas as JSON Schema (fastify-type-provider-zod),
 * plus, per status, the error bodies the route answers. Only the document sees these: the
 * answers themselves are not serialised through them.
 */
export const openApiTransform: typeof jsonSchemaTransform = (document) => {
  const errors = document.route.config?.errors ?? [];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const response = { ...(document.schema?.response ?? {}) } as Record<string, unknown>;
  for (const [status, codes] of byStatus) response[status] ??= errorBodySchema(codes);
  return jsonSchemaTransform({ ...document, schema: { ...document.schema, response } });
};

/** The access policy of every registered route, per server, for the route-by-role tests. */
const routePolicies = new WeakMap<object, Map<string, Access>>();

/** Records a route's access policy (serve does this; a raw route must call it itself). */
export function declareAccess(app: FastifyInstance, method: string, path: string, access: Access): void {
  const policies = routePolicies.get(app.server) ?? new Map<string, Access>();
  routePolicies.set(app.server, policies);
  policies.set(`${method} ${path}`, access);
}

export function listRoutePolicies(app: FastifyInstance): Map<string, Access> {
  return new Map(routePolicies.get(app.server) ?? []);
}

/**
 * Serves one contract endpoint: its schemas validate the request and serialise (and strip)
 * the answer, and its access policy is checked before the handler runs.
 */
export function serve<E extends Endpoint, A extends Access>(
  app: FastifyInstance,
  endpoint: E,
  access: A,
  handler: (ctx: HandlerContext<E, A>) => Promise<z.input<E['response']> | undefined>,
  options: {
    /**
     * The handler hands back the very same object while the answer is the same (a memoised
     * answer, as a reloaded quiz): its serialised text is kept with the object and sent again
     * instead of serialising it on every call (decision 028).
     */
    memoisedAnswer?: boolean;
    rateLimit?: {
      max: number;
      timeWindow: string;
      keyGenerator?: (request: FastifyRequest) => string | Promise<string>;
      /** When the request is counted: onRequest (the default) counts every request, preHandler only well-formed ones. */
      hook?: 'onRequest' | 'preHandler';
    };
  } = {},
): void {
  const status = endpoint.status ?? 200;
  declareAccess(app, endpoint.method, endpoint.path, access);

  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      errors: answeredErrors(endpoint, access),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    },
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(status === 204 ? {} : { response: { [status]: endpoint.response } }),
    },
    // Who may call is settled before the body is even parsed: a stranger learns nothing about a
    // staff route's fields (401), and the wrong role gets 403, whatever they send (decision 016).
    ...(access.kind === 'public' ? {} : { onRequest: (request: FastifyRequest) => authorize(request, access) }),
    // No text may carry a NUL byte or a lone surrogate (PostgreSQL cannot store them): checked
    // here once for every field of every route, so a new field cannot forget it. (Synchronous:
    // an async hook costs every request a promise and a turn of the microtask queue.)
    preValidation: (request, _reply, done) => {
      done(findUnstorableRequestText(request));
    },
    handler: async (request, reply) => {
      // Public routes skip the session lookup: it is the costliest query of a signed-in request.
      // (getAuth is memoised: this is the lookup authorize already made.)
      const auth = access.kind === 'public' ? undefined : await request.getAuth();
      const result = await handler({
        params: request.params as Out<E['params']>,
        query: request.query as Out<E['query']>,
        body: request.body as Out<E['body']>,
        auth: auth as AuthFor<A>,
        request,
        reply,
      });
      reply.status(status);
      if (status === 204) return reply.send();
      if (options.memoisedAnswer && typeof result === 'object' && result !== null) {
        // The route's own serialiser (its response schema), as fastify would have used.
        const text = serialisedAnswers(result, 'json', () => reply.serialize(result));
        // A string with a JSON content type is sent as it is.
        return reply.type('application/json; charset=utf-8').send(text);
      }
      return result;
    },
  });
}

/** The JSON text of each memoised answer, for as long as the answer object lives. */
const serialisedAnswers = createDerivedCache<ReturnType<FastifyReply['serialize']>>();

/** Throws 401, 402 or 403 unless the caller matches the route's access policy. */
async function authorize(request: FastifyRequest, access: Access): Promise<void> {
  if (access.kind === 'public') return;
  const auth = await request.getAuth();
  if (!auth) throw unauthenticated();
  if ((access.kind === 'student' || access.kind === 'paidStudent') && auth.kind !== 'student') throw forbidden();
  if (access.kind === 'paidStudent' && auth.kind === 'student' && !auth.paid) throw paymentRequired();
  if (access.kind === 'staff' && (auth.kind !== 'staff' || !access.roles.includes(policyRoleOf(auth)))) {
    throw forbidden();
  }
}

/** The validation error for the request's first text the database cannot store, if any. */
function findUnstorableRequestText(request: FastifyRequest): Error | undefined {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const problem = findUnstorableText(value);
    // Named like a schema error's field ("first_name", "answers/0"), or the part for a bare value.
    if (problem) return validationFailed([{ field: problem.field || part, message: problem.message }]);
  }
  return undefined;
}

/** Deeper than any request of the contract: a body nested deeper is refused before it is walked. */
const MAX_DEPTH = 32;

/**
 * The first key or text the database cannot store, with its path ("answers/0/content"): a NUL
 * byte (PostgreSQL refuses it in text), a lone UTF-16 surrogate (refused in jsonb, silently
 * replaced in text), or nesting past MAX_DEPTH. Walked with its own stack, so a body nested
 * thousands deep cannot overflow the call stack.
 */
function findUnstorableText(value: unknown): { field: string; message: string } | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const textProblem = problemOfText(next.value);
    if (textProblem) return { field: next.path, message: textProblem };
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= MAX_DEPTH) return { field: next.path, message: 'is nested too deeply' };
    for (const [key, item] of Object.entries(next.value)) {
      const path = next.path ? `${next.path}/${key}` : key;
      const keyProblem = problemOfText(key);
      if (keyProblem) return { field: path, message: keyProblem };
      pending.push({ value: item, path, depth: next.depth + 1 });
    }
  }
  return undefined;
}

/** Half of a UTF-16 surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOfText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text';
  return undefined;
}
