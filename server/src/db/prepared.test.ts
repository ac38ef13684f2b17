import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { createCourt, createStudent } from '../testing/factories.ts';
import { type Database, type Db, runsOnPglite } from './client.ts';
import { isUniqueViolation } from './errors.ts';
import { prepareOnce } from './prepared.ts';
import { counties, students } from './schema.ts';

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

  it('answers the same rows, typed the same, each time, from one query built once per database', async () => {
    const court = await createCourt(database.db);
    const student = await createStudent(database.db, { courtId: court.id, lastName: "O'Brien" });
    const first = await lookup().execute({ id: student.id });
    const again = await lookup().execute({ id: student.id });
    const missing = await lookup().execute({ id: 99_999_999 });

    expect(first).toEqual([{ id: student.id, lastName: "O'Brien", createdAt: expect.any(Date) as Date }]);
    expect(again).toEqual(first);
    expect(missing).toEqual([]);
    expect(lookup()).toBe(lookup());
  });

  it('waits for an open transaction to end rather than running inside it', async () => {
    let inserted!: () => void;
    let rollBack!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const rolledBack = new Promise<void>((resolve) => (rollBack = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.insert(counties).values({ name: 'Pending County', state: 'ZZ' });
      inserted();
      await rolledBack;
      throw new Error('roll back');
    });
    await insertedYet;
    // Sent while the transaction holds its row: run inside it, this read would see the row.
    const read = countyNamed(database.db, 'Pending County');
    rollBack();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await read).toEqual([]);
  });

  it('gives a failed write its database error and goes on answering after it', async () => {
    await insertCounty(database.db).execute({ name: 'Twice County' });
    const again = insertCounty(database.db).execute({ name: 'Twice County' });

    await expect(again).rejects.toSatisfy(isUniqueViolation);
    expect(await countyNamed(database.db, 'Twice County')).toEqual([{ name: 'Twice County' }]);
  });

  const insertCounty = (db: Db) =>
    prepareOnce(db, 'test_insert_county', (database) =>
      database
        .insert(counties)
        .values({ name: sql.placeholder('name'), state: 'ZZ' })
        .returning({ id: counties.id })
        .prepare('test_insert_county'),
    );
  const countyNamed = (db: Db, name: string) =>
    prepareOnce(db, 'test_county_named', (database) =>
      database
        .select({ name: counties.name })
        .from(counties)
        .where(eq(counties.name, sql.placeholder('name')))
        .prepare('test_county_named'),
    ).execute({ name });

  it("runs a query prepared in one transaction on each later transaction's own connection", async () => {
    await database.db.transaction(async (tx) => {
      await insertCounty(tx).execute({ name: 'Kept County' });
    });
    // On PostgreSQL the first transaction's connection is now taken by another open transaction
    // (the pool hands out the connection freed last), so the later one runs on a connection of
    // its own. PGlite has one connection, and runs one transaction at a time.
    const other = runsOnPglite(database.db) ? undefined : await holdAConnection(database.db);
    // Inside a later transaction the query writes there: its own reads see the row, and its
    // rollback takes the row away with it.
    await expect(
      database.db.transaction(async (tx) => {
        await insertCounty(tx).execute({ name: 'Rolled Back County' });
        expect(await countyNamed(tx, 'Rolled Back County')).toEqual([{ name: 'Rolled Back County' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');

    await other?.release();
    expect(await countyNamed(database.db, 'Kept County')).toEqual([{ name: 'Kept County' }]);
    expect(await countyNamed(database.db, 'Rolled Back County')).toEqual([]);
  });
});

/** An open transaction holding a connection until released (then it commits, having done nothing). */
async function holdAConnection(db: Db): Promise<{ release(): Promise<void> }> {
  let started!: () => void;
  let finish!: () => void;
  const holding = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (finish = resolve));
  const done = db.transaction(async () => {
    started();
    await released;
  });
  await holding;
  return {
    async release() {
      finish();
      await done;
    },
  };
}
