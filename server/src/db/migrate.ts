import { fileURLToPath } from 'node:url';
import { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed SQL migrations (one folder for both drivers); throws on failure. */
export async function migrateDatabase(database: Database): Promise<void> {
  const { db } = database;
  // Each driver has its own migrator; the instance says which driver opened the database.
  if (db instanceof PgliteDatabase) {
    await migratePglite(db, { migrationsFolder });
  } else if (db instanceof NodePgDatabase) {
    await migratePg(db, { migrationsFolder });
  } else {
    throw new Error(`No migrator for a ${database.kind} database.`);
  }
}
