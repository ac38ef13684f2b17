import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATE_DUMP } from '../testing/test-database.ts';
import { dumpPglite, openPglite } from './client.ts';

/** Every folder and file under `root` whose mode is not owner-only (0700 folders, 0600 files). */
function notOwnerOnly(root: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = fs.lstatSync(entry);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) found.push(`${mode.toString(8)} ${entry}`);
      for (const child of fs.readdirSync(entry)) walk(path.join(entry, child));
    } else if (mode !== 0o600) {
      found.push(`${mode.toString(8)} ${entry}`);
    }
  };
  walk(root);
  return found;
}

describe('the embedded database on disk', () => {
  let parent: string;

  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-modes-'));
  });
  afterEach(() => {
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('is owner-only from its first start: folders 0700, files 0600, also for tables made later', async () => {
    const dataDir = path.join(parent, 'pglite');
    const database = await openPglite({ dataDir });
    expect(notOwnerOnly(dataDir)).toEqual([]);

    await database.db.execute('create table later_table (x text)');
    await database.db.execute("insert into later_table select repeat('x', 100) from generate_series(1, 1000)");
    await database.db.execute('checkpoint');
    await database.close();
    expect(notOwnerOnly(dataDir)).toEqual([]);
  }, 60_000); // a first start runs initdb on disk: several seconds on a busy machine

  it('is owner-only when restored from a dump, and again after an earlier version left it open', async () => {
    const dataDir = path.join(parent, 'pglite');
    // The suite's template on a PGlite run; a PostgreSQL run has none, so an empty database's dump.
    const dump = fs.existsSync(TEMPLATE_DUMP)
      ? new Blob([fs.readFileSync(TEMPLATE_DUMP)])
      : await openPglite().then(async (empty) => {
          const blob = await dumpPglite(empty);
          await empty.close();
          return blob;
        });
    const restored = await openPglite({ dataDir, dump });
    await restored.close();
    expect(notOwnerOnly(dataDir)).toEqual([]);

    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'PG_VERSION'), 0o644);
    const reopened = await openPglite({ dataDir });
    expect(notOwnerOnly(dataDir)).toEqual([]);
    await reopened.close();
  });
});
