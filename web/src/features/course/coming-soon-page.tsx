import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert.tsx';

/**
 * The certificates page arrives with the certificates issue; until then the route exists, so
 * links and deep links work.
 */
export function ComingSoonPage({
  page,
}: {
  page: 'chapter' | 'module' | 'quiz' | 'final' | 'certificate' | 'score' | 'videoTest';
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t(`course.pages.${page}`)}</h1>
      <Alert tone="info">{t('course.comingSoon')}</Alert>
    </div>
  );
}
