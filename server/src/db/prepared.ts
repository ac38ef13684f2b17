import type { Db } from './client.ts';

/** Per database handle, the hot queries built so far, by name. */
const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query of the hot path, built once per database handle with drizzle's `.prepare(name)` and
 * executed with `sql.placeholder` values: drizzle's query building then runs once, not at every
 * call, and on PostgreSQL node-postgres parses and plans the named statement once per connection
 * (decision 053). A transaction is a handle of its own, alive for one call: its query is built
 * for it, under the same name, which node-postgres finds already prepared on its connection.
 */
export function prepareOnce<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
