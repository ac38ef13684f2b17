import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n.ts';
import { AwardIcon, CheckCircleIcon, CircleIcon, FlagIcon, HomeIcon, LockIcon } from '../components/icons.tsx';
import { chapterLockedBy } from '../features/progress/chapter-open.ts';
import { certificateQueries } from '../features/certificates/certificate-queries.ts';
import { isFinalComplete } from '../features/progress/final-complete.ts';
import { useCompletedChapters } from '../features/progress/progress-queries.ts';
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
  const completedChapters = useCompletedChapters().data;
  const completed = new Set(completedChapters ?? []);
  const finalComplete = isFinalComplete(completedChapters, user);
  // A certificate a super_admin issued without the final counts too (spec 2). Asked only while
  // the final is not complete (the Certificates page shares the answer).
  const certificates = useQuery({
    ...certificateQueries.list(user?.id ?? 0),
    enabled: !finalComplete && (user?.id ?? 0) > 0 && user?.payment_at != null,
  });
  const hasCertificate = finalComplete || (certificates.data?.length ?? 0) > 0;
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true, icon: <HomeIcon /> },
    ...[1, 2, 3, 4].map((chapter) => ({
      to: `/content/${String(chapter)}`,
      label: t('nav.chapter', { number: chapter }),
      // Spec 2: a chapter's icon changes when the chapter is complete; one not open yet shows a lock.
      ...(completed.has(chapter)
        ? { icon: <CheckCircleIcon />, note: t('nav.complete') }
        : chapterLockedBy(completedChapters, chapter) !== null
          ? { icon: <LockIcon />, note: t('nav.locked') }
          : { icon: <CircleIcon /> }),
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
