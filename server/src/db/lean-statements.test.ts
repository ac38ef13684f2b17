import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabaseUrl } from '../testing/test-database.ts';
import { openPostgres } from './client.ts';
import { LeanClient } from './lean-statements.ts';

/** A statement of several types, some null, as drizzle's prepared queries send them. */
const TYPED = {
  name: 'lean_typed_row',
  text: `select $1::int as id, $2::text as name, '2027-03-01T12:00:00Z'::timestamptz as at, '2027-03-01'::date as day,
    '{"a":[1,2]}'::jsonb as doc, null::text as nothing, true as yes`,
};

describe('named statements sent lean (issue 15)', () => {
  it("opens the server's PostgreSQL connections with the lean client", async () => {
    // No connection is opened until the first query.
    const database = openPostgres('postgres://127.0.0.1:1/none');
    const pool: unknown = Reflect.get(database.db, '$client');
    expect(pool).toBeInstanceOf(pg.Pool);
    expect((pool as { options: { Client: unknown } }).options.Client).toBe(LeanClient);
    await database.close();
  });

  // The rest talk to PostgreSQL itself: the suite's server when it runs on PostgreSQL (CI runs both).
  const url = testDatabaseUrl();
  let lean: LeanClient;
  let plain: pg.Client;
  beforeAll(async () => {
    if (!url) return;
    lean = new LeanClient(url);
    plain = new pg.Client(url);
    await Promise.all([lean.connect(), plain.connect()]);
  });
  afterAll(async () => {
    await Promise.all([lean?.end(), plain?.end()]);
  });

  it('answers a named statement with the rows node-postgres itself gives, as objects and as arrays, every execution', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    for (const rowMode of [undefined, 'array'] as const) {
      const config = { ...TYPED, name: `${TYPED.name}_${rowMode ?? 'object'}`, ...(rowMode ? { rowMode } : {}) };
      const expected = await plain.query(config, [7, 'Ana']);
      for (const values of [
        [7, 'Ana'],
        [8, 'Bea'],
      ]) {
        const answer = await lean.query(config, values);
        const reference = await plain.query(config, values);
        expect(answer.rows).toEqual(reference.rows);
        expect(answer.fields.map((field) => field.name)).toEqual(expected.fields.map((field) => field.name));
      }
    }
    const [row] = (await lean.query(TYPED, [7, 'Ana'])).rows as Record<string, unknown>[];
    expect(row).toEqual({
      id: 7,
      name: 'Ana',
      at: new Date('2027-03-01T12:00:00Z'),
      day: expect.any(Date),
      doc: { a: [1, 2] },
      nothing: null,
      yes: true,
    });
  });

  it("skips node-postgres' copy of the query's config and builds a statement's row parsers once", async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const getTypeParser = vi.fn((type: number, format?: string) => pg.types.getTypeParser(type, format as 'text'));
    // node-postgres' own utilities (not in its typings): its Query copies a config object through them.
    const utils = Reflect.get(pg, 'utils') as { normalizeQueryConfig(config: unknown): unknown };
    const copy = vi.spyOn(utils, 'normalizeQueryConfig');
    try {
      const config = { name: 'lean_parsers_once', text: 'select $1::int as n, now() as at', types: { getTypeParser } };
      for (let turn = 1; turn <= 3; turn++) {
        const { rows } = await lean.query(config, [turn]);
        expect(rows).toEqual([{ n: turn, at: expect.any(Date) }]);
      }
      expect(getTypeParser).toHaveBeenCalledTimes(2);
      // Only text is given to it, which it wraps without a copy.
      expect(copy.mock.calls.map(([config]) => typeof config)).toEqual(['string', 'string', 'string']);
    } finally {
      copy.mockRestore();
    }
  });

  it('reads a statement with the columns its own description gives, when a statement of that name on another connection had others (a migration)', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const other = new LeanClient(url);
    await other.connect();
    try {
      const name = 'lean_changed_columns';
      expect((await lean.query({ name, text: 'select 1::int as a' }, [])).rows).toEqual([{ a: 1 }]);
      expect((await other.query({ name, text: `select 'x'::text as a, 2::int as b` }, [])).rows).toEqual([
        { a: 'x', b: 2 },
      ]);
      expect((await lean.query({ name, text: 'select 1::int as a' }, [])).rows).toEqual([{ a: 1 }]);
    } finally {
      await other.end();
    }
  });

  it("answers an error through the caller's promise or callback, and the connection goes on", async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    const failing: pg.QueryConfig = { name: 'lean_failing', text: 'select 1 / $1::int as n' };
    await expect(lean.query(failing, [0])).rejects.toThrow(/division by zero/);
    const viaCallback = await new Promise<unknown>((resolve) => {
      // As the pool calls it: config, values and a callback (a form node-postgres' typings leave out).
      const send = lean.query.bind(lean) as (...args: unknown[]) => unknown;
      send(failing, [0], (error: Error) => {
        resolve(error);
      });
    });
    expect(String(viaCallback)).toMatch(/division by zero/);
    expect((await lean.query(failing, [2])).rows).toEqual([{ n: 0 }]);
  });

  it('sends anything but a plain named statement as it came: text, a statement without a name', async () => {
    if (!url) return expect(testDatabaseUrl()).toBeUndefined();
    expect((await lean.query('select 3 as n')).rows).toEqual([{ n: 3 }]);
    expect((await lean.query({ text: 'select $1::int as n' }, [4])).rows).toEqual([{ n: 4 }]);
    // A cursor's page size (`rows`) is a field node-postgres reads that the lean query does not carry.
    const paged: pg.QueryConfig = Object.assign({ text: 'select $1::int as n', name: 'lean_with_rows' }, { rows: 1 });
    expect((await lean.query(paged, [5])).rows).toEqual([{ n: 5 }]);
  });
});
