import fs from 'node:fs';
import { dumpPglite, openPglite, openPostgres } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { loadContent } from '../db/seed.ts';
import {
  TEMPLATE_DUMP,
  TEST_TMP_DIR,
  templateDatabaseName,
  testDatabaseUrl,
  withDatabaseName,
} from './test-database.ts';

/**
 * Migrates one template database before any test file runs; each test file then starts from
 * a copy of it (a PGlite dump, or CREATE DATABASE ... TEMPLATE on PostgreSQL), which is much
 * faster than migrating per file. The template holds the schema and the content files
 * (courts, chapters), never students or staff: factories make those.
 */
export default async function setup(): Promise<void> {
  fs.mkdirSync(TEST_TMP_DIR, { recursive: true });
  const url = testDatabaseUrl();
  if (url) {
    const template = templateDatabaseName(url);
    const admin = openPostgres(url, { max: 1 });
    await admin.db.execute(`drop database if exists ${template} with (force)`);
    await admin.db.execute(`create database ${template}`);
    await admin.close();
    const database = openPostgres(withDatabaseName(url, template), { max: 1 });
    await migrateDatabase(database);
    await loadContent(database.db);
    await database.close();
    return;
  }
  const database = await openPglite();
  await migrateDatabase(database);
  await loadContent(database.db);
  const dump = await dumpPglite(database, 'none');
  fs.writeFileSync(TEMPLATE_DUMP, Buffer.from(await dump.arrayBuffer()));
  await database.close();
}
