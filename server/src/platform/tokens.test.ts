import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createToken, hashToken } from './tokens.ts';

describe('createToken', () => {
  it('makes a URL-safe secret of 32 random bytes', () => {
    const token = createToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('never makes the same token twice', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => createToken()));
    expect(tokens.size).toBe(1000);
  });

  it('makes a shorter or longer token when asked', () => {
    expect(Buffer.from(createToken(16), 'base64url')).toHaveLength(16);
    expect(Buffer.from(createToken(64), 'base64url')).toHaveLength(64);
  });
});

describe('hashToken', () => {
  it('stores the SHA-256 of the token in hex', () => {
    expect(hashToken('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(hashToken('abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same hash for the same token and different hashes for different tokens', () => {
    expect(hashToken('token-1')).toBe(hashToken('token-1'));
    expect(hashToken('token-1')).not.toBe(hashToken('token-2'));
  });
});
