import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { createCourt, createStudent } from '../testing/factories.ts';
import { type Database, runsOnPglite } from './client.ts';
import { keptPlansSettled, prepareOnce } from './prepared.ts';
import { selectRawRows } from './raw-rows.ts';
import { students } from './schema.ts';

describe('a hot query prepared once (prepareOnce)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const lookup = () =>
    prepareOnce(database.db, 'test_student_lookup', (db) =>
      db
        .select({ id: students.id, lastName: students.lastName, createdAt: students.createdAt })
        .from(students)
        .where(eq(students.id, sql.placeholder('id')))
        .prepare('test_student_lookup'),
    );

  it('answers the same rows, typed the same, before and after PGlite keeps its plan in a function', async () => {
    const court = await createCourt(database.db);
    const student = await createStudent(database.db, { courtId: court.id, lastName: "O'Brien" });
    const first = await lookup().execute({ id: student.id });
    // The function is made in the background after the first use.
    await keptPlansSettled();
    const again = await lookup().execute({ id: student.id });
    const missing = await lookup().execute({ id: 99_999_999 });

    expect(first).toEqual([{ id: student.id, lastName: "O'Brien", createdAt: expect.any(Date) as Date }]);
    expect(again).toEqual(first);
    expect(missing).toEqual([]);
    const functions = await selectRawRows<{ name: string }>(
      database.db,
      sql`select proname as name from pg_proc where proname like 'hot_test_student_lookup_%'`,
    );
    // PostgreSQL keeps the prepared statement itself; PGlite calls the function.
    expect(functions).toHaveLength(runsOnPglite(database.db) ? 1 : 0);
  });
});
