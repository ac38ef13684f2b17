import { useEffect, useMemo } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@ts/contract';
import { isSessionEnded } from '../lib/api.ts';
import { sharedQueries } from '../lib/queries.ts';
import { useStoredUser } from '../lib/session.ts';
import { clearStoredUser, isStaffType, readStoredUser, storeUser } from '../lib/stored-user.ts';
import { paths, studentStart } from './paths.ts';

type Area = 'student' | 'admin';

const belongsTo = (user: SessionUser | null, area: Area) =>
  user !== null && (area === 'admin' ? isStaffType(user) : user.type === 'student');

/**
 * Spec 6: the guard lets the area's users through; anyone else has the stored user cleared and
 * goes to the area's login page. The server is asked too, so an ended session is noticed and
 * the stored copy stays fresh; the server enforces every rule on its own.
 */
export function AreaGuard({ area }: { area: Area }) {
  // Read at each navigation: a stored user removed after a failed call (spec 8) takes effect on
  // the next page, not in the middle of the current one ("not redirected immediately").
  const location = useLocation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the pathname is the reason to read again
  const stored = useMemo(() => readStoredUser(), [location.pathname]);
  const navigate = useNavigate();
  const loginPath = area === 'admin' ? paths.adminLogin : paths.studentLogin;
  const allowed = belongsTo(stored, area);
  const me = useQuery({ ...sharedQueries.me(), enabled: allowed });

  useEffect(() => {
    // Only the server's 401 ends it: a call aborted by a reload or a failing connection does not.
    if (isSessionEnded(me.error)) {
      clearStoredUser();
      void navigate(loginPath, { replace: true });
    }
  }, [me.error, navigate, loginPath]);
  useEffect(() => {
    if (me.data && JSON.stringify(me.data.user) !== localStorage.getItem('user')) storeUser(me.data.user);
  }, [me.data]);

  if (!allowed) {
    if (stored) clearStoredUser();
    return <Navigate to={loginPath} replace />;
  }
  // Spec 4: a student who has not paid goes to /pay with the studentId (where such a student starts).
  if (area === 'student' && stored?.payment_at === null) {
    const start = studentStart(stored);
    return <Navigate to={start.to} replace state={start.state} />;
  }
  return <Outlet />;
}

/**
 * Spec 2: a signed-in user who opens a login page is sent on: admins to /admin, students where
 * they start (studentStart: a finished course's student to /certificate).
 */
export function LoginPageGuard() {
  const stored = useStoredUser();
  if (!stored) return <Outlet />;
  if (isStaffType(stored)) return <Navigate to={paths.admin} replace />;
  const start = studentStart(stored);
  return <Navigate to={start.to} replace state={start.state} />;
}
