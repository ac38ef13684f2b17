import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { type PrepareOptions, prepareOnce } from './prepared.ts';

/** Turns drizzle's SQL into text and parameters, as the database handle's own dialect would. */
const dialect = new PgDialect();

/**
 * The rows of a raw query (drizzle's `db.execute`). Drizzle types a raw result as unknown because
 * each driver shapes it its own way; both of ours (PGlite, node-postgres) answer `{ rows }`,
 * which this checks. `Row` is the caller's word for the columns its SQL selects.
 */
export async function selectRawRows<Row extends Record<string, unknown>>(db: Db, query: SQL | string): Promise<Row[]> {
  return rowsOf<Row>(await db.execute(typeof query === 'string' ? sql.raw(query) : query));
}

/** A driver's answer to a raw statement, `{ rows }` on both (the caller names the columns). */
function rowsOf<Row extends Record<string, unknown>>(result: unknown): Row[] {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) {
    throw new Error('A raw statement answered without rows.');
  }
  return result.rows as Row[];
}

/** selectRawRows under a name kept for the statements of the hot path (decision 053). */
export async function selectPreparedRows<Row extends Record<string, unknown>>(
  db: Db,
  _name: string,
  query: SQL,
): Promise<Row[]> {
  return selectRawRows<Row>(db, query);
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
