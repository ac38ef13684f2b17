import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert.tsx';

/**
 * The course pages (chapters, modules, quizzes, final, certificates, results) arrive with the
 * course and certificate issues; until then each route exists, so links and deep links work.
 */
export function ComingSoonPage({
  page,
}: {
  page: 'chapter' | 'module' | 'quiz' | 'final' | 'certificate' | 'score' | 'videoTest';
}) {
  const { t } = useTranslation();
  const { chapterId = '' } = useParams();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t(`course.pages.${page}`, { chapter: chapterId })}</h1>
      <Alert tone="info">{t('course.comingSoon')}</Alert>
    </div>
  );
}
