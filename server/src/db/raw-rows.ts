import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The rows of a raw query. Drizzle types a raw `execute` result as unknown because each driver
 * shapes it its own way; both of ours (PGlite, node-postgres) answer `{ rows }`, which this checks.
 * `Row` is the caller's word for the columns its SQL selects.
 */
export async function selectRawRows<Row extends Record<string, unknown>>(db: Db, query: SQL | string): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) {
    throw new Error('A raw query answered without rows.');
  }
  return result.rows;
}
