import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The rows of a raw statement (drizzle's `db.execute`), its values written into the `sql`
 * template as parameters. Drizzle types a raw result as unknown because each driver shapes it its
 * own way; both of ours (PGlite, node-postgres) answer `{ rows }`, which this checks. `Row` is the
 * caller's word for the columns its SQL selects.
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
