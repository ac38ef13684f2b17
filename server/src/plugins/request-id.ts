import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request's id travels in, both ways (decision 060). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** A well-formed id: 1 to 64 letters, digits, dots, underscores and hyphens (nothing a log line or a header could be tricked by). */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's genReqId (decision 060): the id a trusted proxy sent in X-Request-Id when it is well
 * formed, so one id follows the request from the proxy's log through ours; otherwise a new random
 * one. The proxy is trusted as TRUST_PROXY says (app.ts): with no hop trusted, a client could name
 * its request after someone else's. Fastify's own requestIdHeader is turned off, since it takes the
 * header from anyone and as it is.
 */
export function requestIdGenerator(trustedProxyHops: number): (request: IncomingMessage) => string {
  return (request) => {
    const sent = request.headers[REQUEST_ID_HEADER];
    return trustedProxyHops > 0 && typeof sent === 'string' && WELL_FORMED.test(sent) ? sent : randomUUID();
  };
}

/** Every answer names its request, an error's body too (plugins/errors.ts), for support to find its log lines. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
