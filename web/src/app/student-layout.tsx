import { useTranslation } from 'react-i18next';
import { AwardIcon, CircleIcon, FlagIcon, HomeIcon } from '../components/icons.tsx';
import { SidebarLayout, type NavItem } from '../components/sidebar-layout.tsx';
import { useSignOut, useStoredUser } from '../lib/session.ts';
import { useSchoolName } from '../lib/queries.ts';
import { SupportFooter } from './support-footer.tsx';

/** Spec 2: Home, Chapter 1 to 4, Final Exam, and Certificates once the course is complete. */
export function StudentLayout() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const signOut = useSignOut();
  const schoolName = useSchoolName();
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true, icon: <HomeIcon /> },
    ...[1, 2, 3, 4].map((chapter) => ({
      to: `/content/${String(chapter)}`,
      label: t('nav.chapter', { number: chapter }),
      // The icon turns into a check once the chapter is complete (course issue).
      icon: <CircleIcon />,
    })),
    { to: '/final', label: t('nav.finalExam'), icon: <FlagIcon /> },
    ...(user?.completed_at ? [{ to: '/certificate', label: t('nav.certificates'), icon: <AwardIcon /> }] : []),
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
