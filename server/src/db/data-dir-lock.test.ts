import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.ts';

/** A process that is alive for the length of a test: "another server" holding the folder. */
function startOtherProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('the other process did not start');
  return child as ChildProcess & { pid: number };
}

/** The pid of a process that has already exited. */
function pidOfFinishedProcess(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(result.stdout);
}

describe('acquireDataDirLock', () => {
  let dataDir: string;
  let lockPath: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-lock-'));
    lockPath = path.join(dataDir, 'server.lock');
  });

  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the folder and writes this process id into server.lock', () => {
    const nested = path.join(dataDir, 'not', 'there', 'yet');
    const release = acquireDataDirLock(nested);
    expect(fs.readFileSync(path.join(nested, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('creates the folder 0700 and the lock file 0600, whatever the umask lets through', () => {
    const nested = path.join(dataDir, 'school-data');
    const release = acquireDataDirLock(nested);
    expect(fs.statSync(nested).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(nested, 'server.lock')).mode & 0o777).toBe(0o600);
    release();
  });

  it('refuses the folder while another live server holds it, naming that process', () => {
    const other = startOtherProcess();
    children.push(other);
    fs.writeFileSync(lockPath, String(other.pid));

    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dataDir)).toThrow(`(process ${String(other.pid)})`);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(other.pid));
  });

  it('takes over a lock left behind by a server that is gone', () => {
    const gonePid = pidOfFinishedProcess();
    fs.writeFileSync(lockPath, String(gonePid));

    const release = acquireDataDirLock(dataDir);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('takes over a lock file that holds no process id', () => {
    fs.writeFileSync(lockPath, 'garbage');

    const release = acquireDataDirLock(dataDir);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('removes the lock file on release, so the next server can start', () => {
    const release = acquireDataDirLock(dataDir);
    release();
    expect(fs.existsSync(lockPath)).toBe(false);

    const again = acquireDataDirLock(dataDir);
    expect(fs.existsSync(lockPath)).toBe(true);
    again();
  });

  it('leaves alone, on release, a lock that another server has taken since', () => {
    const release = acquireDataDirLock(dataDir);
    const other = startOtherProcess();
    children.push(other);
    fs.writeFileSync(lockPath, String(other.pid));

    release();
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(other.pid));
  });

  it('releases quietly when the lock file is already gone', () => {
    const release = acquireDataDirLock(dataDir);
    fs.rmSync(lockPath);
    expect(() => release()).not.toThrow();
  });
});
