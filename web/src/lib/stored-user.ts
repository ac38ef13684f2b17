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

/**
 * Forgets every answer the app keeps (`forget`: the query cache's clear) when another person
 * signs in in this tab, however the one before left (a 401, spec 8's removal, a retake, /pay, or
 * sign-out). Without it, the next person on a shared computer briefly saw the one before: their
 * name from the cached `/api/me`, which the area guard even stored back, and their progress under
 * keys that carry no student id. Done as the new person is stored, before any page of theirs
 * renders; a sign-out itself forgets nothing here (the guards are mid-navigation then), nor does a
 * refresh of the same person's copy.
 */
export function forgetAnswersWhenThePersonChanges(forget: () => void): () => void {
  const personOf = (user: SessionUser | null) => (user ? `${user.type}:${String(user.id)}` : '');
  let person = personOf(readStoredUser());
  const onChange = () => {
    const now = personOf(readStoredUser());
    if (now === '' || now === person) return;
    const before = person;
    person = now;
    if (before !== '') forget();
  };
  window.addEventListener('stored-user', onChange);
  return () => window.removeEventListener('stored-user', onChange);
}
