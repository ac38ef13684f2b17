import { type Options, hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 iterations, 1 lane).
const PRODUCTION_COST = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// argon2's smallest legal settings (8 KiB, 1 iteration): only the test setup may choose them.
const TEST_COST = { memoryCost: 8, timeCost: 1, parallelism: 1 } as const;

let cost: Options = PRODUCTION_COST;

/**
 * Tests only (server/src/testing/password-cost.ts, a vitest setup file): the suite hashes
 * hundreds of staff passwords, and the production cost is slow on purpose. There is no
 * setting or variable for it, so a production start always hashes at the production cost;
 * passwords.test.ts checks that nothing outside the test setup calls this.
 */
export function useTestPasswordCost(): void {
  cost = TEST_COST;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, cost);
}

/** Checks a password against a hash of any cost: argon2 keeps its parameters in the hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A password for the first super_admin when ADMIN_PASSWORD is not set: printed once, never stored in the clear. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
