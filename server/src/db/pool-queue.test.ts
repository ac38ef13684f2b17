import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { type Database, openPostgres } from './client.ts';
import { CallOrderedQueue } from './pool-queue.ts';
import { prepareOnce } from './prepared.ts';

describe("the pool's waiting list, calls under way first (issue 15)", () => {
  it('serves the statements of calls under way before the first statement of a new call, each in the order they came', () => {
    const queue = new CallOrderedQueue<string>();
    queue.push('under way 1');
    queue.nextIsNewCall = true;
    queue.push('new call 1');
    queue.push('new call 2');
    queue.nextIsNewCall = false;
    queue.push('under way 2');

    expect(queue.length).toBe(4);
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([
      'under way 1',
      'under way 2',
      'new call 1',
      'new call 2',
      undefined,
    ]);
    expect(queue.length).toBe(0);
  });

  it("finds and removes a waiter from either part, as pg-pool does when a waiter's connection timeout passes", () => {
    const queue = new CallOrderedQueue<string>();
    queue.push('under way');
    queue.nextIsNewCall = true;
    queue.push('new call');
    queue.push('timed out');
    queue.nextIsNewCall = false;

    const index = queue.findIndex((item) => item === 'timed out');
    expect(index).toBe(2);
    expect(queue.splice(index, 1)).toEqual(['timed out']);
    expect(queue.findIndex((item) => item === 'timed out')).toBe(-1);
    expect(
      queue.splice(
        queue.findIndex((item) => item === 'under way'),
        1,
      ),
    ).toEqual(['under way']);
    expect([queue.shift(), queue.length]).toEqual(['new call', 0]);
  });

  describe("on the suite's database", () => {
    let database: Database & { url?: string };
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(async () => {
      await database.close();
    });

    /** A prepared query that opens a call, as the session lookup and public calls' first reads do. */
    const newCallQuery = (db: Database['db']) =>
      prepareOnce(
        db,
        'test_new_call',
        (database) =>
          database
            .select({ n: sql<number>`1` })
            .from(sql`(select 1) as one`)
            .prepare('test_new_call'),
        { opensCall: true },
      );

    it('on PostgreSQL a waiting statement of a call under way goes before a new call that waited longer; PGlite, with no pool, sends it as its own named statement', async () => {
      if (!database.url) {
        // PGlite: one session, no pool to wait in; the query is left to PGlite's named statements.
        const query = newCallQuery(database.db);
        expect('client' in query && query.client).not.toBeInstanceOf(PGlite);
        expect(await query.execute()).toEqual([{ n: 1 }]);
        return;
      }
      const single = openPostgres(database.url, { max: 1 });
      try {
        const served: string[] = [];
        let release!: () => void;
        let holding!: () => void;
        const held = new Promise<void>((resolve) => (holding = resolve));
        // The pool's one connection is held by a transaction while the two statements queue.
        const transaction = single.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          holding();
          await new Promise<void>((resolve) => (release = resolve));
        });
        await held;
        const newCall = newCallQuery(single.db)
          .execute()
          .then(() => served.push('new call'));
        const underWay = single.db.execute(sql`select 2`).then(() => served.push('under way'));
        release();
        await Promise.all([transaction, newCall, underWay]);

        expect(served).toEqual(['under way', 'new call']);
      } finally {
        await single.close();
      }
    });
  });
});
