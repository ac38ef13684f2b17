import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { type Database, openPostgres } from './client.ts';
import { heardContentVersion } from './content-version.ts';
import { contentVersion, questions } from './schema.ts';

// Decision 038: every connection hears the course content's version, so a copy kept in memory is
// never older than an edit acknowledged before the request that reads it began, on any instance.
describe('the course content version, heard by every connection', () => {
  let database: Database & { url?: string };
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const clientOf = (db: Database['db']): object => Reflect.get(db, '$client') as object;
  const storedVersion = async (db: Database['db']) =>
    (await db.select({ version: contentVersion.version }).from(contentVersion))[0]?.version ?? -1;
  let edits = 0;
  /** An admin's edit of one question's wording: the trigger raises the version once. */
  const editQuestion = async (db: Database['db']) => {
    edits += 1;
    await db
      .update(questions)
      .set({ question: sql`${questions.question} || ${` (edit ${String(edits)})`}` })
      .where(eq(questions.id, 1));
  };

  it('has heard the stored version as soon as the database is open', async () => {
    await database.db.execute(sql`select 1`);
    expect(heardContentVersion(clientOf(database.db))).toBe(await storedVersion(database.db));
  });

  it('hears an edit by the time the edit is acknowledged, on the connection that made it', async () => {
    const before = await storedVersion(database.db);
    await editQuestion(database.db);
    expect(heardContentVersion(clientOf(database.db))).toBe(before + 1);
  });

  it('hears an edit in a transaction only once it commits, and not at all if it rolls back', async () => {
    const before = heardContentVersion(clientOf(database.db));
    await database.db
      .transaction(async (tx) => {
        await editQuestion(tx);
        throw new Error('the admin cancels');
      })
      .catch(() => undefined);
    await database.db.execute(sql`select 1`);
    expect(heardContentVersion(clientOf(database.db))).toBe(before);
    expect(await storedVersion(database.db)).toBe(before);
  });

  // Another instance: its own pool on PostgreSQL (PGlite runs in one process, one instance).
  const url = () => database.url;

  it('tells another instance of an edit before any statement it starts afterwards answers', async () => {
    const address = url();
    if (!address) return expect(database.kind).toBe('pglite');
    const other = openPostgres(address, { max: 3 });
    try {
      // Its connections open and listen, then sit idle or busy while the edits land.
      await Promise.all([1, 2, 3].map(() => other.db.execute(sql`select pg_sleep(0.01)`)));
      for (let round = 0; round < 25; round++) {
        await editQuestion(database.db);
        const committed = await storedVersion(database.db);
        // Whichever of its connections answers, the announcement came first.
        await Promise.all([1, 2, 3].map(() => other.db.execute(sql`select 1`)));
        expect(heardContentVersion(clientOf(other.db))).toBe(committed);
      }
    } finally {
      await other.close();
    }
  });

  it('reads the version on opening a connection, so an edit made before it listened is not missed', async () => {
    const address = url();
    if (!address) return expect(database.kind).toBe('pglite');
    await editQuestion(database.db);
    const other = openPostgres(address, { max: 1 });
    try {
      await other.db.execute(sql`select 1`);
      expect(heardContentVersion(clientOf(other.db))).toBe(await storedVersion(database.db));
    } finally {
      await other.close();
    }
  });

  it('hears an edit on PGlite before the edit’s own promise settles', async () => {
    const client = clientOf(database.db);
    if (!(client instanceof PGlite)) return expect(database.kind).toBe('postgres');
    for (let round = 0; round < 5; round++) {
      await editQuestion(database.db);
      expect(heardContentVersion(client)).toBe(await storedVersion(database.db));
    }
  });
});
