import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { policyRoleOf, type Endpoint, type PolicyRole } from '@ts/contract';
import { forbidden, paymentRequired, unauthenticated } from './errors.ts';
import type { Auth } from './session.ts';

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
/** A signed-in student who has paid: every course call (402 otherwise, issue 3). */
export const PAID_STUDENT = { kind: 'paidStudent' } as const satisfies Access;
/** Any session, student or staff; the handler's policy decides the rest (a route both use). */
export const SIGNED_IN = { kind: 'signedIn' } as const satisfies Access;
/** Every staff member, court-limited ones included (the handler applies their court scope). */
export const ANY_STAFF = {
  kind: 'staff',
  roles: ['super_admin', 'admin', 'clerk', 'court_admin', 'court_clerk'],
} as const satisfies Access;
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
  options: { rateLimit?: { max: number; timeWindow: string } } = {},
): void {
  const status = endpoint.status ?? 200;
  declareAccess(app, endpoint.method, endpoint.path, access);

  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.rateLimit ? { config: { rateLimit: options.rateLimit } } : {}),
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(status === 204 ? {} : { response: { [status]: endpoint.response } }),
    },
    handler: async (request, reply) => {
      // Public routes skip the session lookup: it is the costliest query of a signed-in request.
      const auth = access.kind === 'public' ? undefined : await request.getAuth();
      if (access.kind !== 'public') {
        if (!auth) throw unauthenticated();
        if ((access.kind === 'student' || access.kind === 'paidStudent') && auth.kind !== 'student') {
          throw forbidden();
        }
        if (access.kind === 'paidStudent' && auth.kind === 'student' && !auth.paid) throw paymentRequired();
        if (access.kind === 'staff' && (auth.kind !== 'staff' || !access.roles.includes(policyRoleOf(auth)))) {
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
