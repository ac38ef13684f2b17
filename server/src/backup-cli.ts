import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { backupDatabase, BackupError, defaultBackupFile, replacePgliteDataDir, restorePostgres } from './db/backup.ts';
import { openPglite, openPostgres, type Database } from './db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from './db/data-dir-lock.ts';
import { selectRawRows } from './db/raw-rows.ts';
import { PRIVATE_UMASK } from './platform/private-files.ts';

/**
 * `npm run backup [file]` and `npm run restore <file>` (README "Backups", decision 014), on the
 * database the configuration points at: DATABASE_URL's PostgreSQL, or the embedded one in DATA_DIR.
 */

const USAGE = 'Usage: npm run backup [-- <file>]  |  npm run restore -- <file>';

/** The embedded database cannot be opened by two processes; the running server holds DATA_DIR's lock. */
function lockDataDir(config: Config, doing: string): () => void {
  try {
    return acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new BackupError(
      `${error.message}\nThe embedded database (PGlite) cannot be opened by two processes at once, so ` +
        `${doing} needs the server stopped: stop it, run this again, and start it. ` +
        'On PostgreSQL (DATABASE_URL) backups run while the server serves.',
    );
  }
}

async function countOf(database: Database, table: 'students' | 'certificates'): Promise<number> {
  const [row] = await selectRawRows<{ n: number }>(database.db, `select count(*)::int as n from ${table}`);
  return row?.n ?? 0;
}

async function backup(config: Config, fileArgument: string | undefined): Promise<string> {
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  const file = path.resolve(fileArgument ?? defaultBackupFile(config.dataDir, kind, new Date()));
  if (config.databaseUrl) {
    await backupDatabase({ kind: 'postgres', url: config.databaseUrl }, file);
  } else {
    const dataDir = path.join(config.dataDir, 'pglite');
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      throw new BackupError(`There is no embedded database in ${path.resolve(dataDir)} to back up.`);
    }
    const release = lockDataDir(config, 'a backup');
    try {
      const database = await openPglite({ dataDir });
      try {
        await backupDatabase({ kind: 'pglite', database }, file);
      } finally {
        await database.close();
      }
    } finally {
      release();
    }
  }
  return `Backup written to ${file} (${String(Math.ceil(fs.statSync(file).size / 1024))} KiB).`;
}

async function restore(config: Config, fileArgument: string | undefined): Promise<string> {
  if (!fileArgument) throw new BackupError(`Which backup? ${USAGE}`);
  const file = path.resolve(fileArgument);
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  if (config.databaseUrl) {
    await restorePostgres(file, config.databaseUrl);
    const database = openPostgres(config.databaseUrl, { max: 1 });
    try {
      return `Restored ${file}: ${String(await countOf(database, 'students'))} enrolments, ${String(await countOf(database, 'certificates'))} certificates.`;
    } finally {
      await database.close();
    }
  }
  const release = lockDataDir(config, 'a restore');
  try {
    const dataDir = path.join(config.dataDir, 'pglite');
    // The backup is checked and restored beside the live database before that one is moved.
    const { database, replacedKeptIn } = await replacePgliteDataDir(file, dataDir);
    const kept = replacedKeptIn ? `\nThe database it replaced is kept in ${replacedKeptIn}.` : '';
    try {
      return `Restored ${file} into ${dataDir}: ${String(await countOf(database, 'students'))} enrolments, ${String(await countOf(database, 'certificates'))} certificates.${kept}`;
    } catch (error) {
      throw new BackupError(
        `Restored ${file} into ${dataDir}, but its records could not be counted (${(error as Error).message}).${kept}`,
      );
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, file, ...rest] = argv;
  if ((command !== 'backup' && command !== 'restore') || rest.length > 0) throw new BackupError(USAGE);
  const config = loadConfig();
  // The backup holds every record: only the server's user may read it (decision 014).
  process.umask(PRIVATE_UMASK);
  console.log(command === 'backup' ? await backup(config, file) : await restore(config, file));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
