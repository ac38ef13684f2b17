import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Database } from './client.ts';
import { selectRawRows } from './raw-rows.ts';

describe('the rows of a raw statement (selectRawRows)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('answers each call with its own values, many at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        selectRawRows<{ doubled: number }>(database.db, sql`select ${n}::int * 2 as doubled`),
      ),
    );
    expect(answers.map((rows) => rows[0]?.doubled)).toEqual(Array.from({ length: 30 }, (_, n) => n * 2));
  });

  it('takes a value as a parameter, never as SQL text', async () => {
    const [row] = await selectRawRows<{ value: string }>(
      database.db,
      sql`select ${"x'); drop table students; --"}::text as value`,
    );
    expect(row?.value).toBe("x'); drop table students; --");
    expect(await selectRawRows(database.db, 'select 1 from students limit 0')).toEqual([]);
  });
});
