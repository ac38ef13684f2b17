import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { selectRows } from '../testing/rows.ts';
import type { Database } from './client.ts';

// Decision 027 (migration 0020): the large JSON written on the hot path is compressed with lz4 on
// PostgreSQL (pglz cost a final pass more of the database's time: bench/README.md, measured again
// in session 21); PGlite, built without lz4, keeps pglz.
describe('compression of the large columns', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const compressionOf = async (table: string, column: string) => {
    const [row] = await selectRows(
      database.db,
      sql`select attcompression::text as method from pg_attribute
          where attrelid = ${table}::regclass and attname = ${column}`,
    );
    return row?.method;
  };

  it('compresses quiz results and certificate snapshots with lz4 on PostgreSQL, and leaves PGlite on its default', async () => {
    // '' is the server's default (pglz); 'l' is lz4.
    const expected = database.kind === 'postgres' ? 'l' : '';
    expect(await compressionOf('quiz_attempts', 'result')).toBe(expected);
    expect(await compressionOf('certificates', 'snapshot')).toBe(expected);
  });
});
