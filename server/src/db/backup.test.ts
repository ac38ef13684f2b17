import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestConfig } from '../config.ts';
import {
  backupDatabase,
  BackupError,
  type BackupSource,
  defaultBackupFile,
  postgresToolsAvailable,
  restorePglite,
  restorePostgres,
} from './backup.ts';
import { type Database, type Db, openPglite, openPostgres } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { certificates, payments, students } from './schema.ts';
import { loadContent } from './seed.ts';
import { TestClock } from '../testing/build-test-app.ts';
import { recordCourseCompletion } from '../testing/certificates.ts';
import { recordPaymentAt } from '../testing/dashboard-data.ts';
import { createStudent } from '../testing/factories.ts';
import { openTestDatabase, testDatabaseUrl, withDatabaseName } from '../testing/test-database.ts';

/**
 * `npm run backup` / `npm run restore` (decision 014): a backup restored into a fresh database
 * holds the same enrolments, payments and certificates. It runs on the database the suite runs
 * on: PGlite, or PostgreSQL when TEST_DATABASE_URL is set and pg_dump/pg_restore are installed
 * (without them the PostgreSQL run checks the PGlite path).
 */

interface Side {
  source: BackupSource;
  database: Database;
  /** A new, empty database restored from `file`. */
  restoreFresh(file: string): Promise<Database & { dispose(): Promise<void> }>;
  close(): Promise<void>;
}

async function openSide(workDir: string): Promise<Side> {
  const url = testDatabaseUrl();
  if (url && (await postgresToolsAvailable())) {
    const database = await openTestDatabase();
    if (!database.url) throw new Error('the PostgreSQL test database has no url');
    return {
      source: { kind: 'postgres', url: database.url },
      database,
      async restoreFresh(file) {
        const name = `ts_restore_${randomBytes(6).toString('hex')}`;
        const admin = openPostgres(url, { max: 1 });
        await admin.db.execute(`create database ${name}`);
        await admin.close();
        const target = withDatabaseName(url, name);
        await restorePostgres(file, target);
        const restored = openPostgres(target, { max: 2 });
        return {
          ...restored,
          async dispose() {
            await restored.close();
            const cleanup = openPostgres(url, { max: 1 });
            await cleanup.db.execute(`drop database if exists ${name} with (force)`);
            await cleanup.close();
          },
        };
      },
      close: () => database.close(),
    };
  }
  // PGlite: the suite's in-memory copy of the template, or (on a PostgreSQL run without the
  // client tools) a PGlite migrated here.
  const database = url ? await openPglite() : await openTestDatabase();
  if (url) {
    await migrateDatabase(database);
    await loadContent(database.db);
  }
  return {
    source: { kind: 'pglite', database },
    database,
    async restoreFresh(file) {
      const restored = await restorePglite(file, path.join(workDir, `restored-${randomBytes(4).toString('hex')}`));
      return { ...restored, dispose: () => restored.close() };
    },
    close: () => database.close(),
  };
}

/** What a court would ask for: every enrolment, payment and certificate, byte for byte. */
async function recordsOf(db: Db) {
  return {
    students: await db.select().from(students).orderBy(asc(students.id)),
    payments: await db.select().from(payments).orderBy(asc(payments.id)),
    certificates: await db.select().from(certificates).orderBy(asc(certificates.id)),
  };
}

describe('backup and restore', () => {
  let workDir: string;
  let side: Side;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-backup-test-'));
    side = await openSide(workDir);
    const clock = new TestClock();
    const config = loadTestConfig();
    for (const lastName of ['Okafor', 'Nguyễn', 'Kowalski']) {
      const student = await createStudent(side.database.db, { lastName });
      await recordPaymentAt(side.database.db, student.id, clock.now(), { method: 'card', amountCents: 2995 });
      await recordCourseCompletion({ db: side.database.db, clock, config }, student.id);
    }
    await createStudent(side.database.db, { archivedAt: clock.now(), archiveReason: 'retake' });
  });

  afterAll(async () => {
    await side.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('restores into a fresh database the same students, payments and certificates it backed up', async () => {
    const file = defaultBackupFile(path.join(workDir, 'data'), side.source.kind, new Date());
    await backupDatabase(side.source, file);

    const restored = await side.restoreFresh(file);
    try {
      const original = await recordsOf(side.database.db);
      expect(original.students).toHaveLength(4);
      expect(original.certificates).toHaveLength(3);
      expect(await recordsOf(restored.db)).toEqual(original);
      // The restored database goes on numbering where the original stopped.
      const next = await createStudent(restored.db);
      expect(next.id).toBeGreaterThan(Math.max(...original.students.map((student) => student.id)));
    } finally {
      await restored.dispose();
    }
  });

  it('writes the backup 0600 in a backups folder 0700, and never overwrites a backup', async () => {
    const file = defaultBackupFile(path.join(workDir, 'private'), side.source.kind, new Date());
    await backupDatabase(side.source, file);

    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    const size = fs.statSync(file).size;
    await expect(backupDatabase(side.source, file)).rejects.toThrow(BackupError);
    expect(fs.statSync(file).size).toBe(size);
  });

  it('never restores over a database that holds data', async () => {
    const file = defaultBackupFile(path.join(workDir, 'again'), side.source.kind, new Date());
    await backupDatabase(side.source, file);

    if (side.source.kind === 'postgres') {
      await expect(restorePostgres(file, side.source.url)).rejects.toThrow(/already has tables/);
    } else {
      const occupied = path.join(workDir, 'occupied');
      fs.mkdirSync(occupied);
      fs.writeFileSync(path.join(occupied, 'PG_VERSION'), '18\n');
      await expect(restorePglite(file, occupied)).rejects.toThrow(/already holds a database/);
    }
    expect(await recordsOf(side.database.db)).toMatchObject({ students: { length: 4 } });
  });
});
