import { Navigate } from 'react-router';
import { useStoredUser } from '../../lib/session.ts';
import { DashboardPage } from './dashboard-page.tsx';

/**
 * Spec 6: an admin limited to one court has no dashboard; their start page is Students. A court's
 * own clerk starts on the court's completions (decision 025).
 */
export function AdminIndexPage() {
  const user = useStoredUser();
  if (user?.court_id != null) return <Navigate to={user.type === 'clerk' ? '/court' : '/admin/students'} replace />;
  return <DashboardPage />;
}
