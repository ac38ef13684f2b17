import type { Db } from './client.ts';

const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query of the hot path (issue 15), built once per database (or per transaction, which runs on
 * its own connection) and prepared under `name`: drizzle's query building costs more than a
 * primary-key lookup itself, and PostgreSQL then plans it once per connection.
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
