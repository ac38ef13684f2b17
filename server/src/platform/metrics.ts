import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics through prom-client (decision 060). Each app has its own registry, so the
 * tests' many apps in one process never meet on prom-client's global one.
 */

/**
 * What the school did, counted where it happens once its transaction has committed. These three
 * are the process's (one app per process in production), not one app's: the services that count
 * them run from routes and jobs alike, without an app in hand. Every app's registry shows them.
 */
export const schoolEvents = {
  registrations: new Counter({
    name: 'registrations_total',
    help: 'Enrolments registered (a student on their own, or staff enrolling one by hand).',
    registers: [],
  }),
  paymentsSucceeded: new Counter({
    name: 'payments_succeeded_total',
    help: 'Card payments the provider confirmed and the school recorded, each once however often confirmed.',
    registers: [],
  }),
  certificatesIssued: new Counter({
    name: 'certificates_issued_total',
    help: 'Certificates issued: completions, staff-issued ones and corrections.',
    registers: [],
  }),
};

/** The certificate emails as the database has them at scrape time. */
export interface DeliveryBacklog {
  /** How many deliveries are in each status. */
  byStatus: Record<string, number>;
  /** How long the oldest queued delivery has waited, in seconds (0 when none is queued). */
  oldestQueuedAgeSeconds: number;
}

/** A connection pool's documented counters (pg's Pool: totalCount, idleCount, waitingCount). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface Metrics {
  readonly registry: Registry;
  /** One answer: how long it took, by method, route pattern and status code. */
  observeRequest(answer: { method: string; route: string; statusCode: number; seconds: number }): void;
  /** The scrape's text, with what is read from the database at scrape time freshly read. */
  scrape(): Promise<string>;
}

/** The statuses always reported, so that an alert on one never finds the series missing. */
const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'cancelled'];

export function createMetrics(sources: {
  /** The certificates feature's reading of its delivery table. */
  readDeliveryBacklog: () => Promise<DeliveryBacklog>;
  /** PostgreSQL's pool; null on PGlite, which has no pool. */
  pool: PoolCounts | null;
  /** A failed database read during a scrape: the rest of the scrape is still answered. */
  onReadFailure: (error: unknown) => void;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const counter of Object.values(schoolEvents)) registry.registerMetric(counter);

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern (never the raw URL) and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  // Read from the database at scrape time, in a registry of their own: a scrape that could not
  // read them leaves them out, rather than showing an empty queue.
  const databaseFigures = new Registry();
  const deliveries = new Gauge({
    name: 'certificate_deliveries',
    help: 'Certificate emails by status, read from the database at scrape time.',
    labelNames: ['status'],
    registers: [databaseFigures],
  });
  const oldestQueued = new Gauge({
    name: 'certificate_delivery_oldest_queued_age_seconds',
    help: 'How long the oldest queued certificate email has waited (0 when none is queued).',
    registers: [databaseFigures],
  });
  const { pool } = sources;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state: total, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  return {
    registry,
    observeRequest({ method, route, statusCode, seconds }) {
      requestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    async scrape() {
      let read = true;
      try {
        const backlog = await sources.readDeliveryBacklog();
        for (const status of new Set([...DELIVERY_STATUSES, ...Object.keys(backlog.byStatus)])) {
          deliveries.set({ status }, backlog.byStatus[status] ?? 0);
        }
        oldestQueued.set(backlog.oldestQueuedAgeSeconds);
      } catch (error) {
        // A database that cannot answer leaves these two out rather than failing the scrape, so
        // that the process's own metrics still arrive (and `up` keeps meaning the process is up).
        read = false;
        sources.onReadFailure(error);
      }
      // Two expositions one after the other are one: their metric names differ.
      return (await registry.metrics()) + (read ? await databaseFigures.metrics() : '');
    },
  };
}
