import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Database } from './client.ts';
import { selectPreparedRows } from './raw-rows.ts';

describe('a hot statement prepared under its name (selectPreparedRows)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('answers each call with its own values, the same statement run many times on the pool', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        selectPreparedRows<{ doubled: number }>(database.db, 'double', sql`select ${n}::int * 2 as doubled`),
      ),
    );
    expect(answers.map((rows) => rows[0]?.doubled)).toEqual(Array.from({ length: 30 }, (_, n) => n * 2));
  });

  it('prepares a statement built differently under the same name as a statement of its own', async () => {
    const [doubled] = await selectPreparedRows<{ value: number }>(
      database.db,
      'shape',
      sql`select ${4}::int * 2 as value`,
    );
    const [squared] = await selectPreparedRows<{ value: number }>(
      database.db,
      'shape',
      sql`select ${4}::int * ${4}::int + 1 as value`,
    );
    expect([doubled?.value, squared?.value]).toEqual([8, 17]);
  });
});
