import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@ts/contract';
import { SidebarLayout, type NavItem } from '../components/sidebar-layout.tsx';
import { useSignOut, useStoredUser } from '../lib/session.ts';

/** Spec 6: full admins see every item; an admin limited to one court sees Students and Change Password. */
export function adminNavItems(user: SessionUser | null, t: (key: string) => string): NavItem[] {
  const students = { to: '/admin/students', label: t('admin.nav.students') };
  const changePassword = { to: '/admin/change-password', label: t('admin.nav.changePassword') };
  if (user?.court_id != null) return [students, changePassword];
  return [
    { to: '/admin', label: t('admin.nav.dashboard'), end: true },
    students,
    { to: '/admin/student-sign-up', label: t('admin.nav.studentSignUp') },
    { to: '/admin/modify-questions', label: t('admin.nav.modifyQuestions') },
    changePassword,
    { to: '/admin/archive', label: t('admin.nav.archive') },
  ];
}

export function AdminLayout() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const signOut = useSignOut();
  return (
    <SidebarLayout
      title={t('admin.title')}
      items={adminNavItems(user, t)}
      userName={user?.name ?? ''}
      onSignOut={() => void signOut()}
    />
  );
}
