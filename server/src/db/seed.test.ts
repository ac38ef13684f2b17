import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { countRows } from '../testing/rows.ts';
import type { Database } from './client.ts';
import { chapters, courts } from './schema.ts';
import { loadContent } from './seed.ts';

const CONTENT_TABLES = ['counties', 'courts', 'chapters', 'modules'];

/** The template every test database is copied from already holds the content: loading it again is a restart. */
describe('loadContent', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const counts = async () =>
    Object.fromEntries(
      await Promise.all(CONTENT_TABLES.map(async (table) => [table, await countRows(database.db, table)] as const)),
    );

  it('has loaded the courts and the chapters 1-4 and 6', async () => {
    expect(await countRows(database.db, 'courts')).toBeGreaterThan(0);
    const ids = (await database.db.select({ id: chapters.id }).from(chapters)).map((row) => row.id).sort();
    expect(ids).toEqual([1, 2, 3, 4, 6]);
  });

  it('adds nothing when it runs again on a loaded database', async () => {
    await loadContent(database.db);
    const before = await counts();
    await loadContent(database.db);
    await loadContent(database.db);
    expect(await counts()).toEqual(before);
  });

  it('keeps an admin’s edits to a court and a chapter when it runs again', async () => {
    const [court] = await database.db.select().from(courts).limit(1);
    if (!court) throw new Error('no court loaded');
    await database.db
      .update(courts)
      .set({ email: 'new.clerk@court.example', priceCents: 2500 })
      .where(eq(courts.id, court.id));
    await database.db.update(chapters).set({ title: 'Edited by an admin' }).where(eq(chapters.id, 1));

    await loadContent(database.db);

    const [after] = await database.db.select().from(courts).where(eq(courts.id, court.id));
    expect(after).toMatchObject({ email: 'new.clerk@court.example', priceCents: 2500, name: court.name });
    const [chapter] = await database.db.select().from(chapters).where(eq(chapters.id, 1));
    expect(chapter?.title).toBe('Edited by an admin');
  });
});
