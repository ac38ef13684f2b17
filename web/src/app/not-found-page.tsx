import { Link } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { PageHeading } from '../components/page-heading.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4 text-center">
      <PageHeading className="text-2xl font-bold">{t('notFound.title')}</PageHeading>
      <p className="text-slate-700">{t('notFound.body')}</p>
      <Link to="/login" className="font-semibold text-blue-800 underline">
        {t('notFound.link')}
      </Link>
    </div>
  );
}
