import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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

/** The names in a tar archive, or undefined when it is cut off or not a tar at all. */
function tarEntryNames(tar: Buffer): string[] | undefined {
  const names: string[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return names; // the end-of-archive blocks
    if (header.subarray(257, 262).toString('latin1') !== 'ustar') return undefined;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) return undefined;
    const prefix = field(345, 155);
    names.push(prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    offset += 512 + Math.ceil(size / 512) * 512;
    if (offset > tar.length) return undefined; // an entry's data runs past the end: cut off
  }
  return offset === tar.length ? names : undefined;
}

/**
 * Reads a PGlite backup whole and checks it before anything is touched: a gzip that unpacks to a
 * tar of a database folder (it holds PG_VERSION at its top). Answers the unpacked tar, which
 * PGlite loads as it is; a damaged gzip handed to PGlite itself fails late, in zlib, as an error
 * no caller can catch.
 */
function readPgliteBackup(file: string): Blob {
  expectKind(file, 'pglite');
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(fs.readFileSync(file));
  } catch (error) {
    throw new BackupError(`${file} is damaged: it cannot be unpacked (${(error as Error).message}).`);
  }
  const names = tarEntryNames(tar);
  if (!names) throw new BackupError(`${file} is damaged: it unpacks to a cut-off or unreadable archive.`);
  if (!names.some((name) => name.replace(/^\.?\//, '') === 'PG_VERSION')) {
    throw new BackupError(
      `${file} unpacks, but not to an embedded database: it is not a backup made by npm run backup.`,
    );
  }
  // zlib's output is never shared memory; Blob's type asks for a plain ArrayBuffer.
  return new Blob([tar as Buffer<ArrayBuffer>]);
}

/** Opens `dataDir` (empty or absent) from a checked backup and answers a query; on failure leaves no folder behind. */
async function openRestored(file: string, tar: Blob, dataDir: string): Promise<Database> {
  const existed = fs.existsSync(dataDir);
  let database: Database | undefined;
  try {
    database = await openPglite({ dataDir, dump: tar });
    await selectRawRows(database.db, 'select 1');
    return database;
  } catch (error) {
    await database?.close().catch(() => undefined);
    if (existed) {
      for (const entry of fs.readdirSync(dataDir)) {
        fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
      }
    } else {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    throw new BackupError(`${file} could not be opened as a database (${(error as Error).message}).`);
  }
}

/**
 * Opens a new embedded database in `dataDir` from a backup. The folder must not hold a database:
 * a restore never overwrites one (replacePgliteDataDir moves an existing one aside, once the
 * backup has been restored).
 */
export async function restorePglite(file: string, dataDir: string): Promise<Database> {
  const tar = readPgliteBackup(file);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(`${dataDir} already holds a database; a restore never overwrites one.`);
  }
  return openRestored(file, tar, dataDir);
}

/**
 * `npm run restore` on the embedded database: the backup is checked and restored into a new
 * folder beside `dataDir`, and only once that database opens is the live one moved aside (court
 * records are never deleted: it is kept as `<dataDir>-replaced-<time>`) and the restored one put
 * in its place. Any failure before that leaves the live folder exactly where it was; a failure
 * during the swap puts it back, or names where it is. Answers the restored database, open.
 */
export async function replacePgliteDataDir(
  file: string,
  dataDir: string,
  now = new Date(),
): Promise<{ database: Database; replacedKeptIn?: string }> {
  const stamp = now.toISOString().replaceAll(':', '-');
  const untouched = `The database in ${dataDir} was not touched.`;
  const staging = `${dataDir}-restoring-${stamp}`;
  try {
    const tar = readPgliteBackup(file);
    if (fs.existsSync(staging)) throw new BackupError(`${staging} is in the way; move it and try again.`);
    await (await openRestored(file, tar, staging)).close();
  } catch (error) {
    if (error instanceof BackupError) throw new BackupError(`${error.message}\n${untouched}`);
    throw error;
  }

  let replacedKeptIn: string | undefined;
  try {
    if (fs.existsSync(dataDir)) {
      if (fs.readdirSync(dataDir).length > 0) {
        replacedKeptIn = `${dataDir}-replaced-${stamp}`;
        fs.renameSync(dataDir, replacedKeptIn);
      } else {
        fs.rmdirSync(dataDir);
      }
    }
    fs.renameSync(staging, dataDir);
  } catch (error) {
    const reason = (error as Error).message;
    let where = untouched;
    if (replacedKeptIn && !fs.existsSync(dataDir)) {
      try {
        fs.renameSync(replacedKeptIn, dataDir);
        where = `The database in ${dataDir} was moved to ${replacedKeptIn} and back again.`;
      } catch {
        where = `The live database was moved to ${replacedKeptIn}: move it back to ${dataDir} to serve it again.`;
      }
    }
    throw new BackupError(
      `The restored database could not be put in place (${reason}). ${where}\nThe restored copy is in ${staging}.`,
    );
  }

  try {
    return { database: await openPglite({ dataDir }), ...(replacedKeptIn ? { replacedKeptIn } : {}) };
  } catch (error) {
    throw new BackupError(
      `The restored database in ${dataDir} could not be opened (${(error as Error).message}).` +
        (replacedKeptIn ? ` The database it replaced is kept in ${replacedKeptIn}.` : ''),
    );
  }
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
