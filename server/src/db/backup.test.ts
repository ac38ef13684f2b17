import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
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
  replacePgliteDataDir,
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
  const database = await openPgliteDatabase();
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

/**
 * A PGlite database with the suite's schema: the suite's in-memory copy of the template, or (on a
 * PostgreSQL run, which has no PGlite template) a PGlite migrated here.
 */
async function openPgliteDatabase(): Promise<Database> {
  if (!testDatabaseUrl()) return openTestDatabase();
  const database = await openPglite();
  await migrateDatabase(database);
  await loadContent(database.db);
  return database;
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

/** How many enrolments the embedded database in `dataDir` holds, opened as the server opens it. */
async function studentCountIn(dataDir: string): Promise<number> {
  const database = await openPglite({ dataDir });
  try {
    return (await database.db.select().from(students)).length;
  } finally {
    await database.close();
  }
}

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('restoring the embedded database over the live one (npm run restore)', () => {
  let workDir: string;
  /** A good backup holding two enrolments. */
  let backupFile: string;
  let liveSequence = 0;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-restore-test-'));
    const source = await openPgliteDatabase();
    try {
      await createStudent(source.db, { lastName: 'Okafor' });
      await createStudent(source.db, { lastName: 'Kowalski' });
      backupFile = defaultBackupFile(path.join(workDir, 'source'), 'pglite', new Date());
      await backupDatabase({ kind: 'pglite', database: source }, backupFile);
    } finally {
      await source.close();
    }
  });

  afterAll(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** A DATA_DIR whose live database (DATA_DIR/pglite) holds three enrolments: the backup's two and one since. */
  async function liveDataDir(): Promise<{ dataDir: string; pgliteDir: string }> {
    liveSequence += 1;
    const dataDir = path.join(workDir, `data-${String(liveSequence)}`);
    const pgliteDir = path.join(dataDir, 'pglite');
    const { database } = await replacePgliteDataDir(backupFile, pgliteDir);
    try {
      await createStudent(database.db, { lastName: 'Since The Backup' });
    } finally {
      await database.close();
    }
    return { dataDir, pgliteDir };
  }

  /** The backup cut off half way: still a gzip by its first bytes, but it cannot be unpacked. */
  function cutOffBackup(): string {
    const file = path.join(workDir, 'cut-off.tar.gz');
    const bytes = fs.readFileSync(backupFile);
    fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    return file;
  }

  it('restores a backup into an empty data folder', async () => {
    const pgliteDir = path.join(workDir, 'empty', 'pglite');
    const { database, replacedKeptIn } = await replacePgliteDataDir(backupFile, pgliteDir);
    await database.close();

    expect(replacedKeptIn).toBeUndefined();
    expect(fs.readdirSync(path.dirname(pgliteDir))).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(2);
  });

  it('puts a good backup in place of the live database and keeps the replaced one beside it, whole', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();

    const { database, replacedKeptIn } = await replacePgliteDataDir(backupFile, pgliteDir);
    await database.close();

    expect(replacedKeptIn).toMatch(/pglite-replaced-/);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['pglite', path.basename(replacedKeptIn ?? '')].sort());
    expect(await studentCountIn(pgliteDir)).toBe(2);
    expect(await studentCountIn(replacedKeptIn ?? '')).toBe(3);
  });

  it('refuses a PostgreSQL dump before anything is moved: the live database stays in place with its rows', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();
    const wrongFile = path.join(workDir, 'wrong.pgdump');
    fs.writeFileSync(wrongFile, 'PGDMPxxxx');

    const failure = replacePgliteDataDir(wrongFile, pgliteDir);
    await expect(failure).rejects.toThrow(BackupError);
    await expect(failure).rejects.toThrow(`is a backup of PostgreSQL`);
    await expect(failure).rejects.toThrow(`The database in ${pgliteDir} was not touched.`);
    expect(fs.readdirSync(dataDir)).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });

  it('refuses a file that is no backup at all, and moves nothing', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();
    const notABackup = path.join(workDir, 'notes.txt');
    fs.writeFileSync(notABackup, 'not a backup');

    await expect(replacePgliteDataDir(notABackup, pgliteDir)).rejects.toThrow('is not a backup made by npm run backup');
    expect(fs.readdirSync(dataDir)).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });

  it('refuses a cut-off archive before anything is moved: the live database stays in place with its rows', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();

    const failure = replacePgliteDataDir(cutOffBackup(), pgliteDir);
    await expect(failure).rejects.toThrow(BackupError);
    await expect(failure).rejects.toThrow('is damaged');
    await expect(failure).rejects.toThrow(`The database in ${pgliteDir} was not touched.`);
    expect(fs.readdirSync(dataDir)).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });

  it('refuses an archive whose bytes were damaged in the middle, and moves nothing', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();
    const damaged = path.join(workDir, 'damaged.tar.gz');
    const bytes = Buffer.from(fs.readFileSync(backupFile));
    for (let at = Math.floor(bytes.length / 2); at < Math.floor(bytes.length / 2) + 64; at++) bytes[at] = 0;
    fs.writeFileSync(damaged, bytes);

    await expect(replacePgliteDataDir(damaged, pgliteDir)).rejects.toThrow('is damaged');
    expect(fs.readdirSync(dataDir)).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });

  it('refuses a gzip that does not hold a database folder, and moves nothing', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();
    const otherArchive = path.join(workDir, 'other.tar.gz');
    fs.writeFileSync(otherArchive, zlib.gzipSync(Buffer.from('some other compressed file')));

    await expect(replacePgliteDataDir(otherArchive, pgliteDir)).rejects.toThrow(BackupError);
    expect(fs.readdirSync(dataDir)).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });

  it('npm run restore of a wrong file exits 1 with the reason, and the live database is still DATA_DIR/pglite', async () => {
    const { dataDir, pgliteDir } = await liveDataDir();
    const wrongFile = path.join(workDir, 'wrong-again.pgdump');
    fs.writeFileSync(wrongFile, 'PGDMPxxxx');

    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/backup-cli.ts', 'restore', wrongFile], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });

    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('is a backup of PostgreSQL');
    expect(result.stderr).toContain('was not touched');
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('pglite'))).toEqual(['pglite']);
    expect(await studentCountIn(pgliteDir)).toBe(3);
  });
});
