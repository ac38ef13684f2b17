import { useTranslation } from 'react-i18next';
import { SidebarLayout, type NavItem } from '../components/sidebar-layout.tsx';
import { useSignOut, useStoredUser } from '../lib/session.ts';
import { useSchoolName } from '../lib/queries.ts';
import { SupportFooter } from './support-footer.tsx';

const BookIcon = () => (
  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
    <path d="M4 3h9a3 3 0 0 1 3 3v11H6a2 2 0 0 1-2-2V3zm2 12h8V6a1 1 0 0 0-1-1H6v10z" />
  </svg>
);

/** Spec 2: Home, Chapter 1 to 4, Final Exam, and Certificates once the course is complete. */
export function StudentLayout() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const signOut = useSignOut();
  const schoolName = useSchoolName();
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true },
    ...[1, 2, 3, 4].map((chapter) => ({
      to: `/content/${String(chapter)}`,
      label: t('nav.chapter', { number: chapter }),
      icon: <BookIcon />,
    })),
    { to: '/final', label: t('nav.finalExam') },
    ...(user?.completed_at ? [{ to: '/certificate', label: t('nav.certificates') }] : []),
  ];
  return (
    <SidebarLayout
      title={schoolName}
      items={items}
      userName={user?.name ?? ''}
      onSignOut={() => void signOut()}
      footer={<SupportFooter />}
    />
  );
}
