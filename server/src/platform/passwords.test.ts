import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';

const serverSource = path.resolve(import.meta.dirname, '..');

/** passwords.ts as a production start loads it: a fresh copy that no test setup has touched. */
async function productionPasswords(): Promise<typeof import('./passwords.ts')> {
  vi.resetModules();
  return import('./passwords.ts');
}

describe('passwords', () => {
  it('hashes with argon2id and the OWASP minimum settings in production, never keeping the password', async () => {
    const hash = await (await productionPasswords()).hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain('correct horse');
  });

  it('hashes at argon2’s smallest cost in tests only, and verifies hashes of either cost', async () => {
    const cheap = await hashPassword('correct horse battery staple');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    const production = await (await productionPasswords()).hashPassword('correct horse battery staple');
    expect(await verifyPassword(cheap, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(production, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(production, 'wrong horse battery staple')).toBe(false);
  });

  it('lets nothing but the test setup switch to the test cost, so a production start cannot', () => {
    const callers = fs
      .readdirSync(serverSource, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => fs.readFileSync(path.join(serverSource, file), 'utf8').includes('useTestPasswordCost'))
      .map((file) => file.split(path.sep).join('/'))
      .sort();
    expect(callers).toEqual(['platform/passwords.ts', 'testing/password-cost.ts']);
  });

  it('salts every hash, so one password gives two different hashes', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'Correct horse battery staple')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('answers false, not an error, for a stored hash that is not a hash', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(await verifyPassword('', 'anything')).toBe(false);
  });

  it('generates long, URL-safe, random first passwords', () => {
    const passwords = new Set(Array.from({ length: 100 }, () => generatePassword()));
    expect(passwords.size).toBe(100);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});
