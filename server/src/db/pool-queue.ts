import pg from 'pg';

/**
 * node-postgres' pool keeps the statements waiting for a connection in one first-come list
 * (`_pendingQueue`), so a call of four statements waits in it four times and a call of one
 * once: under load, latency followed a call's statement count, not its work (issue 15). This
 * list serves the statements of calls already under way first and the first statement of a new
 * call last (a query `prepareOnce` was told `opensCall`: the session lookup, a public call's first
 * read; sendAsNewCall), so a call waits about once,
 * whatever its number of statements. Calls under way finish, so new ones are never held back
 * for long: the list of statements under way holds at most one per call already admitted.
 */
export class CallOrderedQueue<Item> {
  private readonly underWay: Item[] = [];
  private readonly newCalls: Item[] = [];
  /** Set by sendAsNewCall's client around the one synchronous push of its pool.query. */
  nextIsNewCall = false;

  get length(): number {
    return this.underWay.length + this.newCalls.length;
  }

  push(item: Item): number {
    (this.nextIsNewCall ? this.newCalls : this.underWay).push(item);
    return this.length;
  }

  shift(): Item | undefined {
    return this.underWay.length > 0 ? this.underWay.shift() : this.newCalls.shift();
  }

  // pg-pool removes a waiter whose connection timeout passed (removeWhere: findIndex, then splice).
  findIndex(predicate: (item: Item) => boolean): number {
    const index = this.underWay.findIndex(predicate);
    if (index !== -1) return index;
    const later = this.newCalls.findIndex(predicate);
    return later === -1 ? -1 : this.underWay.length + later;
  }

  splice(start: number, deleteCount: number): Item[] {
    if (start < this.underWay.length) return this.underWay.splice(start, deleteCount);
    return this.newCalls.splice(start - this.underWay.length, deleteCount);
  }
}

const queues = new WeakMap<pg.Pool, CallOrderedQueue<unknown>>();

/** Gives a pool the call-ordered waiting list (before its first query). */
export function orderQueueByCall(pool: pg.Pool): void {
  // pg-pool's waiting list is its own field (not in its typings); it uses push, shift, length
  // and, for a connection timeout, findIndex and splice. A release that renamed it fails here, at
  // the first test on PostgreSQL, rather than quietly queueing first come first served.
  if (!('_pendingQueue' in pool && Array.isArray(pool._pendingQueue) && pool._pendingQueue.length === 0)) {
    throw new Error("pg-pool's waiting list (_pendingQueue) is not where db/pool-queue.ts expects it");
  }
  const queue = new CallOrderedQueue<unknown>();
  Object.assign(pool, { _pendingQueue: queue });
  queues.set(pool, queue);
}

/**
 * A prepared query that opens a call (prepareOnce's `opensCall`) waits behind the statements of
 * calls under way: drizzle's prepared query calls `client.query`, so its pool is swapped for one that queues
 * it as a new call's. Does nothing to anything else (PGlite, a transaction's connection).
 */
export function sendAsNewCall(query: unknown): void {
  if (typeof query !== 'object' || query === null || !('client' in query)) return;
  const pool = query.client;
  if (!(pool instanceof pg.Pool)) return;
  const queue = queues.get(pool);
  if (!queue) return;
  const client = {
    query(config: pg.QueryConfig, values?: unknown[]) {
      queue.nextIsNewCall = true;
      try {
        return pool.query(config, values);
      } finally {
        queue.nextIsNewCall = false;
      }
    },
  };
  Object.assign(query, { client });
}
