import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { selectRawRows } from '../db/raw-rows.ts';

/**
 * The rows of a raw query, as both drivers return them. Raw SQL sees every column the
 * database really has, not only those schema.ts declares.
 */
export async function selectRows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  return selectRawRows(db, query);
}

/** How many rows a table holds (the name is ours, never user input). */
export async function countRows(db: Db, table: string): Promise<number> {
  const [row] = await selectRows(db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return Number(row?.n);
}
