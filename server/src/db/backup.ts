import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../platform/private-files.ts';
import { type Database, dumpPglite, openPglite, openPostgres } from './client.ts';
import { selectRawRows } from './raw-rows.ts';

/**
 * A consistent copy of the whole database in one owner-only file (decision 014), and its way back:
 * - the embedded database: PGlite's own dump of its folder (a .tar.gz), taken inside PGlite so it
 *   is one consistent state; it is restored by opening a new folder from it.
 * - PostgreSQL: `pg_dump --format=custom` (a .pgdump), restored with `pg_restore` into an empty
 *   database. Both tools come with the PostgreSQL client package.
 */

export type BackupSource = { kind: 'pglite'; database: Database } | { kind: 'postgres'; url: string };

export class BackupError extends Error {}

export const BACKUP_EXTENSION = { pglite: 'tar.gz', postgres: 'pgdump' } as const;

/** DATA_DIR/backups/backup-2026-11-23T03-00-00-000Z.tar.gz */
export function defaultBackupFile(dataDir: string, kind: BackupSource['kind'], now: Date): string {
  const stamp = now.toISOString().replaceAll(':', '-').replace('.', '-');
  return path.join(dataDir, 'backups', `backup-${stamp}.${BACKUP_EXTENSION[kind]}`);
}

/**
 * Writes the backup to `file` (0600, in a folder made 0700 if it is new). It is written under a
 * temporary name and renamed, so a file with the final name is always a whole backup.
 */
export async function backupDatabase(source: BackupSource, file: string): Promise<void> {
  makePrivateDir(path.dirname(file));
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists; a backup never overwrites one.`);
  const partial = `${file}.${randomUUID()}.partial`;
  try {
    if (source.kind === 'pglite') {
      const dump = await dumpPglite(source.database);
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } else {
      // Created first so pg_dump writes into a file that is already owner-only.
      fs.writeFileSync(partial, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      await runPostgresTool(
        'pg_dump',
        ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`],
        source.url,
      );
    }
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** What a backup file holds, from its first bytes (a gzip for PGlite, PGDMP for pg_dump). */
export function backupKindOf(file: string): BackupSource['kind'] | undefined {
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 5, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  return undefined;
}

function expectKind(file: string, kind: BackupSource['kind']): void {
  const found = backupKindOf(file);
  if (found === kind) return;
  const names = { pglite: 'the embedded database (PGlite)', postgres: 'PostgreSQL' };
  throw new BackupError(
    found
      ? `${file} is a backup of ${names[found]}; this server is configured for ${names[kind]}.`
      : `${file} is not a backup made by npm run backup.`,
  );
}

/**
 * Opens a new embedded database in `dataDir` from a backup. The folder must not hold a database:
 * a restore never overwrites one (the command line moves an existing one aside first).
 */
export async function restorePglite(file: string, dataDir: string): Promise<Database> {
  expectKind(file, 'pglite');
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(`${dataDir} already holds a database; a restore never overwrites one.`);
  }
  return openPglite({ dataDir, dump: new Blob([fs.readFileSync(file)]) });
}

/** Restores a pg_dump backup into the database at `url`, which must be empty (no tables yet). */
export async function restorePostgres(file: string, url: string): Promise<void> {
  expectKind(file, 'postgres');
  const target = openPostgres(url, { max: 1 });
  try {
    const [tables] = await selectRawRows<{ n: number }>(
      target.db,
      `select count(*)::int as n from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    if ((tables?.n ?? 0) > 0) {
      throw new BackupError(
        'The database DATABASE_URL points at already has tables; a restore never overwrites one. ' +
          'Create an empty database (createdb), point DATABASE_URL at it and run the restore again.',
      );
    }
  } finally {
    await target.close();
  }
  await runPostgresTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file],
    url,
  );
}

/**
 * Runs pg_dump or pg_restore against `url`. A password goes to the tool in a temporary
 * owner-only password file (libpq's `passfile`), not on its command line, where any local user
 * could read it in the process list.
 */
async function runPostgresTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const target = new URL(url);
  const password = decodeURIComponent(target.password);
  let passDir: string | undefined;
  if (password) {
    passDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-backup-'));
    const passFile = path.join(passDir, 'pgpass');
    fs.writeFileSync(passFile, `*:*:*:*:${password.replaceAll('\\', '\\\\').replaceAll(':', '\\:')}\n`, {
      mode: PRIVATE_FILE_MODE,
    });
    target.password = '';
    target.searchParams.set('passfile', passFile);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(tool, [...args, `--dbname=${target.toString()}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'ENOENT'
            ? new BackupError(
                `${tool} was not found. Install the PostgreSQL client tools (for example ` +
                  "`apt-get install postgresql-client`) of the server's major version or newer.",
              )
            : error,
        );
      });
      child.on('close', (code) => {
        if (code === 0) resolve();
        else reject(new BackupError(`${tool} failed (exit ${String(code)}): ${stderr.trim()}`));
      });
    });
  } finally {
    if (passDir) fs.rmSync(passDir, { recursive: true, force: true });
  }
}

/** Whether pg_dump and pg_restore can be run on this machine. */
export function postgresToolsAvailable(): Promise<boolean> {
  const check = (tool: string) =>
    new Promise<boolean>((resolve) => {
      const child = spawn(tool, ['--version'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
    });
  return Promise.all([check('pg_dump'), check('pg_restore')]).then((found) => found.every(Boolean));
}
