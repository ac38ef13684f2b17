import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Endpoint, StaffRole } from '@ts/contract';
import { forbidden, unauthenticated } from './errors.ts';
import type { Auth } from './session.ts';

/**
 * Who may call a route. Every route declares one (there is no default), so a new route
 * cannot be left open by accident.
 */
export type Access = { kind: 'public' } | { kind: 'student' } | { kind: 'staff'; roles: readonly StaffRole[] };

export const PUBLIC = { kind: 'public' } as const satisfies Access;
export const STUDENT = { kind: 'student' } as const satisfies Access;
export const ANY_STAFF = { kind: 'staff', roles: ['super_admin', 'admin', 'clerk'] } as const satisfies Access;
export const staffRoles = (...roles: StaffRole[]) => ({ kind: 'staff', roles }) as const satisfies Access;

type Out<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.output<NonNullable<T>>
    : undefined;
type AuthFor<A extends Access> = A extends { kind: 'student' }
  ? Extract<Auth, { kind: 'student' }>
  : A extends { kind: 'staff' }
    ? Extract<Auth, { kind: 'staff' }>
    : Auth | null;

export interface HandlerContext<E extends Endpoint, A extends Access> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  auth: AuthFor<A>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The access policy of every registered route, for the route-by-role tests. */
export const routePolicies = new WeakMap<FastifyInstance, Map<string, Access>>();

/**
 * Serves one contract endpoint: its schemas validate the request and serialise (and strip)
 * the answer, and its access policy is checked before the handler runs.
 */
export function serve<E extends Endpoint, A extends Access>(
  app: FastifyInstance,
  endpoint: E,
  access: A,
  handler: (ctx: HandlerContext<E, A>) => Promise<z.input<E['response']> | undefined>,
): void {
  const status = endpoint.status ?? 200;
  const policies = routePolicies.get(app) ?? new Map<string, Access>();
  routePolicies.set(app, policies);
  policies.set(`${endpoint.method} ${endpoint.path}`, access);

  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(status === 204 ? {} : { response: { [status]: endpoint.response } }),
    },
    handler: async (request, reply) => {
      const auth = await request.getAuth();
      if (access.kind !== 'public') {
        if (!auth) throw unauthenticated();
        if (access.kind === 'student' && auth.kind !== 'student') throw forbidden();
        if (access.kind === 'staff' && (auth.kind !== 'staff' || !access.roles.includes(auth.role))) {
          throw forbidden();
        }
      }
      const result = await handler({
        params: request.params as Out<E['params']>,
        query: request.query as Out<E['query']>,
        body: request.body as Out<E['body']>,
        auth: auth as AuthFor<A>,
        request,
        reply,
      });
      reply.status(status);
      return status === 204 ? reply.send() : result;
    },
  });
}
