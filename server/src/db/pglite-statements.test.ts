import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedStatementClient } from './pglite-statements.ts';

// The embedded engine's own statements, on a PGlite of their own whatever database the suite runs on.
describe('named statements on PGlite (namedStatementClient)', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`create table pets (id int primary key, name text not null, born timestamptz)`);
    await pglite.exec(`insert into pets values (1, 'Rex', '2020-01-02T03:04:05Z'), (2, 'Tom', null)`);
  });
  afterAll(async () => {
    await pglite.close();
  });

  const keptNames = async (fragment: string) =>
    (
      await pglite.query<{ name: string }>(
        `select name from pg_prepared_statements where starts_with(name, 'named_') and strpos(statement, $1) > 0`,
        [fragment],
      )
    ).rows.map((row) => row.name);

  it('prepares a text once and answers each use with its own parameters, parsed as PGlite parses them', async () => {
    const client = namedStatementClient(pglite);
    const text = 'select id, name, born from pets where id = $1';

    const first = await client.query(text, [1]);
    const second = await client.query(text, [2]);

    expect(first.rows).toEqual([{ id: 1, name: 'Rex', born: new Date('2020-01-02T03:04:05Z') }]);
    expect(second.rows).toEqual([{ id: 2, name: 'Tom', born: null }]);
    expect(await client.query(text, [3], { rowMode: 'array' })).toMatchObject({ rows: [] });
    expect(await keptNames('from pets where id = $1')).toHaveLength(1);
  });

  it('counts the rows a write changed', async () => {
    const client = namedStatementClient(pglite);

    const renamed = await client.query('update pets set name = $2 where id = $1', [2, 'Tim']);

    expect(renamed.affectedRows).toBe(1);
    expect((await client.query('select name from pets where id = $1', [2])).rows).toEqual([{ name: 'Tim' }]);
  });

  it('sends a text PostgreSQL will not prepare as a plain query, which gives its error, and goes on', async () => {
    const client = namedStatementClient(pglite);

    await expect(client.query('select name frm pets where id = $1', [1])).rejects.toMatchObject({ code: '42601' });
    expect((await client.query('select name from pets where id = $1', [1])).rows).toEqual([{ name: 'Rex' }]);
  });

  it('keeps at most 500 statements: a text past them is answered as a plain query', async () => {
    const client = namedStatementClient(pglite);
    for (let n = 0; n < 510; n++) {
      const { rows } = await client.query(`select $1::int + ${String(n)} as total`, [1]);
      expect(rows).toEqual([{ total: n + 1 }]);
    }

    const kept = await pglite.query<{ count: number }>(
      `select count(*)::int as count from pg_prepared_statements where starts_with(name, 'named_')`,
    );
    expect(kept.rows[0]?.count).toBeLessThanOrEqual(500);
    expect(await keptNames('+ 0 as total')).toHaveLength(1);
    expect(await keptNames('+ 509 as total')).toEqual([]);
  });
});
