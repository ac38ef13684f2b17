import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { type Database, openPglite, openPostgres } from '../db/client.ts';

export const TEST_TMP_DIR = fileURLToPath(new URL('../../../.tmp/test', import.meta.url));
/** The migrated template, uncompressed: each test file loads it (a gzipped one loads twice as slowly). */
export const TEMPLATE_DUMP = path.join(TEST_TMP_DIR, 'template.tar');

/** The PostgreSQL server the suite runs against instead of PGlite, when set (.ci/run sets it). */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export function templateDatabaseName(url: string): string {
  return `${new URL(url).pathname.slice(1) || 'postgres'}_template`;
}

/**
 * A fresh database for one test file, copied from the migrated template that global-setup
 * made: a PGlite in memory, or a new PostgreSQL database when TEST_DATABASE_URL is set.
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  const url = testDatabaseUrl();
  if (!url) {
    const dump = new Blob([fs.readFileSync(TEMPLATE_DUMP)]);
    return openPglite({ dump });
  }
  const name = `ts_test_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.db.execute(`create database ${name} template ${templateDatabaseName(url)}`);
  await admin.close();
  const database = openPostgres(withDatabaseName(url, name), { max: 5 });
  return {
    ...database,
    // For the few tests that hand the database to a PostgreSQL tool (the backup test).
    url: withDatabaseName(url, name),
    async close() {
      await database.close();
      const cleanup = openPostgres(url, { max: 1 });
      await cleanup.db.execute(`drop database if exists ${name} with (force)`);
      await cleanup.close();
    },
  };
}
