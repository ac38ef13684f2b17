import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything the server keeps under DATA_DIR (the database with certificate PDFs, birth dates and
 * licence numbers; outbox mail with set-password links; backups) is for the server's own user
 * only (decision 014): folders 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * The process umask the server runs under, so any file a library creates later (PGlite's new
 * tables, WAL segments) is owner-only too, whatever mode it asks for.
 */
export const PRIVATE_UMASK = 0o077;

/** Creates a folder (and any missing parents) that only this user can open. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Takes group and other access away from a folder and everything in it. Some files are created
 * with the modes their creator chose (PGlite writes a new database's files 0666 whatever the
 * umask is) or by an earlier version that was less careful, so the server narrows them at start.
 * Symbolic links are left alone: their target is not ours to change.
 */
export function restrictTreeToOwner(root: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(root, PRIVATE_DIR_MODE);
    for (const entry of fs.readdirSync(root)) restrictTreeToOwner(path.join(root, entry));
  } else if ((stat.mode & 0o077) !== 0) {
    // Owner bits kept (a read-only file stays read-only); group and other removed.
    fs.chmodSync(root, stat.mode & 0o700);
  }
}
