import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { type SessionUser, authApi } from '@ts/contract';
import { callApi } from './api.ts';
import { clearStoredUser, isStaffType, readStoredUser } from './stored-user.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('stored-user', onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener('stored-user', onChange);
    window.removeEventListener('storage', onChange);
  };
}

let lastRaw: string | null = null;
let lastUser: SessionUser | null = null;
function snapshot(): SessionUser | null {
  const raw = localStorage.getItem('user');
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastUser = readStoredUser();
  }
  return lastUser;
}

/** The stored display copy of the signed-in user, kept in step across tabs. */
export function useStoredUser(): SessionUser | null {
  return useSyncExternalStore(subscribe, snapshot);
}

/** Spec 2: 'Sign out' ends the session and goes to the matching login page. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const wasStaff = isStaffType(readStoredUser());
    try {
      await callApi(authApi.logout);
    } finally {
      clearStoredUser();
      queryClient.clear();
      void navigate(wasStaff ? '/admin-login' : '/login', { replace: true });
    }
  }, [navigate, queryClient]);
}
