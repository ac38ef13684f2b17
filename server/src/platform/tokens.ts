import { createHash, randomBytes } from 'node:crypto';

/** A random URL-safe secret for cookies and one-time links. */
export function createToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the database stores of a token or an identifier that must not be kept in the clear. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
