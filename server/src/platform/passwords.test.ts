import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id and the OWASP minimum settings, never keeping the password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain('correct horse');
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
