import { useQuery } from '@tanstack/react-query';
import { certificatesApi } from '@ts/contract';
import { useTranslation } from '../lib/i18n.ts';
import { callApi } from '../lib/api.ts';
import { AwardIcon, CheckCircleIcon, CircleIcon, FlagIcon, HomeIcon } from '../components/icons.tsx';
import { useCompletedChapters } from '../features/course/course-queries.ts';
import { IdentityCheckDialog } from '../features/course/identity-check.tsx';
import { PersonalQuestionsGate } from '../features/course/personal-questions.tsx';
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
  const completed = new Set(useCompletedChapters().data ?? []);
  const finalComplete = Boolean(user?.completed_at) || completed.has(6);
  // Issue 19: a certificate a super_admin issued without the final counts too. Asked once per
  // visit, and only while the final is not complete (the Certificates page shares the answer).
  const certificates = useQuery({
    queryKey: ['certificates', user?.id ?? 0],
    queryFn: () => callApi(certificatesApi.list, { params: { studentId: user?.id ?? 0 } }),
    enabled: !finalComplete && (user?.id ?? 0) > 0 && user?.payment_at != null,
    staleTime: Infinity,
  });
  const hasCertificate = finalComplete || (certificates.data?.length ?? 0) > 0;
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true, icon: <HomeIcon /> },
    ...[1, 2, 3, 4].map((chapter) => ({
      to: `/content/${String(chapter)}`,
      label: t('nav.chapter', { number: chapter }),
      // Spec 2: a chapter's icon changes when the chapter is complete.
      icon: completed.has(chapter) ? <CheckCircleIcon /> : <CircleIcon />,
      ...(completed.has(chapter) ? { note: t('nav.complete') } : {}),
    })),
    { to: '/final', label: t('nav.finalExam'), icon: <FlagIcon /> },
    // Spec 2: Certificates once a certificate exists or the final exam is complete.
    ...(hasCertificate ? [{ to: '/certificate', label: t('nav.certificates'), icon: <AwardIcon /> }] : []),
  ];
  return (
    <>
      <SidebarLayout
        title={schoolName}
        items={items}
        userName={user?.name ?? ''}
        onSignOut={() => void signOut()}
        footer={<SupportFooter />}
      />
      {/* Identity checks (decision 012): nothing shows under a profile without them. */}
      <IdentityCheckDialog />
      {/* Personal validation questions (decision 050): only a profile that asks them sends the student there. */}
      <PersonalQuestionsGate />
    </>
  );
}
