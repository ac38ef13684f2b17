import { type SessionUser, SessionUserSchema } from '@ts/contract';

/**
 * Spec 3: the signed-in user's display copy lives in local storage under `user`; invalid
 * stored JSON is discarded. The server decides everything; this only shows a name early.
 */
const KEY = 'user';

export function readStoredUser(): SessionUser | null {
  const raw = localStorage.getItem(KEY);
  if (raw === null) return null;
  try {
    const parsed = SessionUserSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: discarded below
  }
  localStorage.removeItem(KEY);
  return null;
}

export function storeUser(user: SessionUser): void {
  localStorage.setItem(KEY, JSON.stringify(user));
  window.dispatchEvent(new Event('stored-user'));
}

export function clearStoredUser(): void {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event('stored-user'));
}

export const isStaffType = (user: SessionUser | null): boolean =>
  user !== null && (user.type === 'admin' || user.type === 'super_admin' || user.type === 'clerk');
