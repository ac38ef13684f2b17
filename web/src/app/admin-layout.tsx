import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { clearStoredUser } from '../lib/stored-user.ts';
import { paths } from './paths.ts';
import { type SessionUser, auditApi, emailsApi, staffApi, staffMayCall, stateFilingsApi } from '@ts/contract';
import { HeadingCourtProvider } from '../components/page-heading.tsx';
import { SidebarLayout, type NavItem } from '../components/sidebar-layout.tsx';
import { staffPolicyRole } from '../features/admin/staff-role.ts';
import { useCourts } from '../lib/queries.ts';
import { useSignOut, useStoredUser } from '../lib/session.ts';

/**
 * Spec 6 and decision 011: full admins see every item of the spec (super_admins also Users and
 * the Audit log); clerks the read-only ones; an admin limited to one court Students and Change
 * Password; a clerk limited to one court those and the Archive (of that court), but no Dashboard,
 * whose figures are the whole school's. The server enforces the same table; this only hides what
 * would be refused.
 */
export function adminNavItems(user: SessionUser | null, t: (key: string) => string): NavItem[] {
  const dashboard = { to: '/admin', label: t('admin.nav.dashboard'), end: true };
  const students = { to: '/admin/students', label: t('admin.nav.students') };
  const studentSignUp = { to: '/admin/student-sign-up', label: t('admin.nav.studentSignUp') };
  const modifyQuestions = { to: '/admin/modify-questions', label: t('admin.nav.modifyQuestions') };
  const changePassword = { to: '/admin/change-password', label: t('admin.nav.changePassword') };
  const archive = { to: '/admin/archive', label: t('admin.nav.archive') };
  // Decision 025: the court's completions, for the court's own staff and for admins over every court.
  const courtCompletions = { to: '/court', label: t('admin.nav.courtCompletions') };
  // Decision 025: correction requests, decided by admins (a court's own admin for that court).
  const corrections = { to: '/admin/corrections', label: t('admin.nav.corrections') };
  const role = staffPolicyRole(user);
  // Spec 6 and decision 026: a role or scope this build does not know gets no item at all.
  if (role === null) return [];
  if (role === 'court_admin') return [courtCompletions, students, corrections, changePassword];
  if (role === 'court_clerk') return [courtCompletions, students, changePassword, archive];
  if (role === 'clerk') return [dashboard, students, changePassword, archive];
  const items = [
    dashboard,
    students,
    courtCompletions,
    corrections,
    studentSignUp,
    modifyQuestions,
    changePassword,
    archive,
  ];
  // Decision 024: a state's report spans all its courts, so only admins over every court file it.
  if (staffMayCall(stateFilingsApi.overview, role)) {
    items.push({ to: '/admin/state-filings', label: t('admin.nav.stateFilings') });
  }
  if (staffMayCall(staffApi.list, role)) items.push({ to: '/admin/users', label: t('admin.nav.users') });
  // Decision 057: the school's admins preview every email the school sends.
  if (staffMayCall(emailsApi.list, role)) items.push({ to: '/admin/emails', label: t('admin.nav.emails') });
  if (staffMayCall(auditApi.list, role)) items.push({ to: '/admin/audit', label: t('admin.nav.audit') });
  return items;
}

export function AdminLayout() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const signOut = useSignOut();
  const items = adminNavItems(user, t);
  const courts = useCourts();
  // Decision 063: a court's own staff read their court's name in every page's title.
  const courtId = user && user.type !== 'student' ? user.court_id : null;
  const courtName = courtId === null ? '' : (courts.data?.find((court) => court.id === courtId)?.name ?? '');
  // Spec 6: "Missing nav items cause the stored user to be removed": the staff login instead of
  // an empty shell.
  if (items.length === 0) return <ForgetStoredUser />;
  return (
    <HeadingCourtProvider value={courtName}>
      <SidebarLayout
        title={t('admin.title')}
        items={items}
        userName={user?.name ?? ''}
        onSignOut={() => void signOut()}
      />
    </HeadingCourtProvider>
  );
}

/** Removes the stored user and shows the staff login. */
function ForgetStoredUser() {
  useEffect(() => clearStoredUser(), []);
  return <Navigate to={paths.adminLogin} replace />;
}
