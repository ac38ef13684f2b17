import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { StaffRole } from '@ts/contract';
import { auditLog } from '../db/schema.ts';
import type { TestApp } from './build-test-app.ts';
import type { CreatedStaff } from './factories.ts';
import { uniqueAddress } from './sign-in.ts';
import { signedInStaff } from './course.ts';

/** The staff tests' calls and checks (features/staff/*.test.ts). */

export const WRONG_PASSWORD_MESSAGE =
  'There was an error changing your password. Please ensure your current password was typed correctly.';
export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired. Ask a super admin for a new one.';

export interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload: unknown): Promise<LightMyRequestResponse>;
}

/** Each call comes from an address of its own, so the routes' per-address limits stay out of the way. */
export function clientOf(t: TestApp, cookie: string | null): Client {
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      remoteAddress: uniqueAddress(),
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url) => send('GET', url),
    post: (url, payload) => send('POST', url, payload ?? {}),
    put: (url, payload) => send('PUT', url, payload),
  };
}

export async function signedIn(
  t: TestApp,
  role: StaffRole,
  courtId: number | null = null,
): Promise<{ member: CreatedStaff; cookie: string; client: Client }> {
  const { member, cookie } = await signedInStaff(t, role, courtId);
  return { member, cookie, client: clientOf(t, cookie) };
}

export const signIn = (t: TestApp, username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login/admin',
    payload: { username, password },
    remoteAddress: uniqueAddress(),
  });

export const setPassword = (t: TestApp, token: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/staff/set-password',
    payload: { token, password },
    remoteAddress: uniqueAddress(),
  });

export const tokenOf = (setPasswordUrl: string) => {
  const token = new URL(setPasswordUrl).hash.replace(/^#token=/, '');
  expect(token.length).toBeGreaterThanOrEqual(40);
  return token;
};

let sequence = 0;
export function newAccount(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    username: `new.member${String(sequence)}`,
    email: `new.member${String(sequence)}@school.example`,
    name: `New Member ${String(sequence)}`,
    role: 'clerk',
    court_id: null,
    ...overrides,
  };
}

export async function auditEntries(t: TestApp, action: string, entityId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.id);
}

/** The audit log keeps no secret: no password hash and no set-password token. */
export function expectNoSecrets(entries: unknown, token?: string) {
  const json = JSON.stringify(entries);
  expect(json).not.toMatch(/hash/i);
  expect(json).not.toContain('$argon2');
  if (token) expect(json).not.toContain(token);
}
