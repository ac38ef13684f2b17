import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, dropQueryParsers, runsOnPglite } from './client.ts';
import { type PrepareOptions, prepareOnce, sendAsNamedStatement } from './prepared.ts';

/** Turns drizzle's SQL into text and parameters, as the database handle's own dialect would. */
const dialect = new PgDialect();

/**
 * The rows of a raw query. Drizzle types a raw `execute` result as unknown because each driver
 * shapes it its own way; both of ours (PGlite, node-postgres) answer `{ rows }`, which this checks.
 * `Row` is the caller's word for the columns its SQL selects.
 */
export async function selectRawRows<Row extends Record<string, unknown>>(db: Db, query: SQL | string): Promise<Row[]> {
  return rowsOf<Row>(runsOnPglite(db) ? await executeOnPglite(db, query) : await db.execute(query));
}

/** A driver's answer to a raw statement, `{ rows }` on both (the caller names the columns). */
function rowsOf<Row extends Record<string, unknown>>(result: unknown): Row[] {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) {
    throw new Error('A raw statement answered without rows.');
  }
  return result.rows as Row[];
}

/**
 * db.execute on PGlite, without drizzle's per-query parsers (client.ts, dropQueryParsers); `kept`
 * sends it as a named statement PGlite keeps (a hot statement's, selectPreparedRows).
 */
function executeOnPglite(db: Db, query: SQL | string, kept: 'kept' | 'sent' = 'sent'): Promise<unknown> {
  const built = typeof query === 'string' ? { sql: query, params: [] } : dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(built, undefined, undefined, false);
  dropQueryParsers(prepared);
  if (kept === 'kept') sendAsNamedStatement(prepared);
  return prepared.execute();
}

/**
 * selectRawRows for a statement of the hot path (issue 15): on PostgreSQL a named prepared
 * statement, parsed once per connection and planned from a cached plan once PostgreSQL finds one
 * as good (a final pass's grading statement is long, and parsing and planning it was a fifth of
 * the database's time). The name carries a hash of the text, so a statement built differently
 * is prepared under a name of its own. On PGlite, a named statement PGlite keeps (decision 033;
 * sendAsNamedStatement leaves a transaction's query as it is).
 */
export async function selectPreparedRows<Row extends Record<string, unknown>>(
  db: Db,
  name: string,
  query: SQL,
): Promise<Row[]> {
  if (runsOnPglite(db)) return rowsOf<Row>(await executeOnPglite(db, query, 'kept'));
  const built = dialect.sqlToQuery(query);
  const hash = createHash('sha1').update(built.sql).digest('hex').slice(0, 12);
  return rowsOf<Row>(await db._.session.prepareQuery(built, undefined, `${name}_${hash}`, false).execute());
}

/**
 * A statement written in SQL (a lock, say) prepared once (prepareOnce), its values
 * `sql.placeholder`s given to `execute`; for a statement whose rows are not read. Unlike
 * selectPreparedRows, the text is built once, so it cannot carry values of its own.
 */
export function prepareStatement(db: Db, name: string, statement: () => SQL, options: PrepareOptions = {}) {
  return prepareOnce(
    db,
    name,
    (database) => database._.session.prepareQuery(dialect.sqlToQuery(statement()), undefined, name, false),
    options,
  );
}

/** prepareStatement's statement run with `values`, and its rows (named by the caller, as selectRawRows). */
export async function selectPreparedStatementRows<Row extends Record<string, unknown>>(
  db: Db,
  name: string,
  statement: () => SQL,
  values: Record<string, unknown>,
  options: PrepareOptions = {},
): Promise<Row[]> {
  return rowsOf<Row>(await prepareStatement(db, name, statement, options).execute(values));
}
