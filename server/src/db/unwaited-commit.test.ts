import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { type Database, openPostgres } from './client.ts';
import { selectRawRows } from './raw-rows.ts';
import { COMMIT_UNWAITED } from './unwaited-commit.ts';

describe('a write whose commit does not wait for the disk (COMMIT_UNWAITED, decision 035)', () => {
  let database: Database & { url?: string };
  // One connection, so that the transaction after is on the connection the setting was made on
  // (PGlite has one session).
  let single: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    single = database.url ? openPostgres(database.url, { max: 1 }) : database;
    await selectRawRows(database.db, sql`create table unwaited_probe (n int primary key)`);
  });
  afterAll(async () => {
    if (single !== database) await single.close();
    await database.close();
  });

  const commitSetting = async (db: Database['db']) =>
    (await selectRawRows<{ setting: string }>(db, sql`select current_setting('synchronous_commit') as setting`))[0]
      ?.setting;

  it('writes its row and turns synchronous_commit off for its own transaction, and the next transaction on the connection waits again', async () => {
    const settings = await single.db.transaction(async (tx) => {
      const before = await commitSetting(tx);
      await selectRawRows(tx, sql`insert into unwaited_probe (n) select 1 where ${COMMIT_UNWAITED}`);
      return [before, await commitSetting(tx)];
    });
    const after = await single.db.transaction((tx) => commitSetting(tx));

    expect([...settings, after]).toEqual(['on', 'off', 'on']);
    expect(await selectRawRows(database.db, sql`select n from unwaited_probe`)).toEqual([{ n: 1 }]);
  });
});
