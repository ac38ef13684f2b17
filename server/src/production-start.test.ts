import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts `npm start`'s entry point as a real process with only the given environment. */
function startProcess(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-production-start-'));
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ...result, dataDir };
}

describe('a production start without keys (decision 016)', () => {
  it('exits non-zero with one message naming every variable to set, and creates no database', () => {
    const result = startProcess({ NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:');
    for (const name of [
      'STRIPE_SECRET_KEY',
      'ALLOW_TEST_PAYMENTS',
      'SMTP_URL',
      'ALLOW_MAIL_OUTBOX',
      'PUBLIC_URL',
      'ALLOW_HTTP',
    ]) {
      expect(result.stderr).toContain(name);
    }
    expect(fs.existsSync(path.join(result.dataDir, 'pglite'))).toBe(false);
  });
});
