import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import type { Metrics } from '../platform/metrics.ts';
import { unauthenticated } from './errors.ts';

/** Where Prometheus reads the metrics: outside /api, as Prometheus' own default path (decision 060). */
export const METRICS_PATH = '/metrics';

/**
 * Decision 060: with METRICS_TOKEN set, every answer's time goes into the request histogram, and
 * GET /metrics answers the Prometheus text to a bearer of the token, 401 to anyone else. Without
 * the token app.ts registers none of it, and /metrics is an unknown path like any other.
 */
export function registerMetrics(app: FastifyInstance, options: { token: string; metrics: Metrics }): void {
  const { metrics } = options;
  const expected = digest(options.token);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest({
      method: request.method,
      // The route's pattern (/api/students/:id), never the URL: ids and query strings would make a
      // series per student. A path no route matched is one series.
      route: request.routeOptions.url ?? 'unmatched',
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const offered = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Digests of equal length, compared in constant time: neither the token nor its length leaks
    // through how long a refusal takes.
    if (!timingSafeEqual(digest(offered), expected)) {
      reply.header('www-authenticate', 'Bearer');
      throw unauthenticated('A bearer token is required to read the metrics.');
    }
    const text = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * PostgreSQL's connection pool behind the app's database, for db_pool_connections; null on PGlite.
 * Drizzle documents `$client` as the driver's client it was given.
 */
export function databasePoolOf(db: Db): pg.Pool | null {
  return '$client' in db && db.$client instanceof pg.Pool ? db.$client : null;
}
