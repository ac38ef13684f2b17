import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert.tsx';
import { useStoredUser } from '../../lib/session.ts';
import { DashboardPage } from './dashboard-page.tsx';

type AdminPage =
  | 'dashboard'
  | 'students'
  | 'studentDetail'
  | 'studentSignUp'
  | 'modifyQuestions'
  | 'editQuestion'
  | 'changePassword'
  | 'users'
  | 'audit';

/** Admin screens arrive with the admin issue; each route exists now so the area can be walked. */
export function AdminComingSoonPage({ page }: { page: AdminPage }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t(`admin.pages.${page}`)}</h1>
      <Alert tone="info">{t('admin.comingSoon')}</Alert>
    </div>
  );
}

/** Spec 6: an admin limited to one court has no dashboard; their start page is Students. */
export function AdminIndexPage() {
  const user = useStoredUser();
  if (user?.court_id != null) return <Navigate to="/admin/students" replace />;
  return <DashboardPage />;
}
