import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { buttonClass } from '../../components/button.tsx';
import { PageHeading } from '../../components/page-heading.tsx';

/** Spec 2 /thank-you: confirmation with a link to /login to begin the course. */
export function ThankYouPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md space-y-4 text-center">
      <PageHeading className="text-2xl font-bold">{t('thankYou.title')}</PageHeading>
      <p className="text-slate-700">{t('thankYou.body')}</p>
      <Link to="/login" className={buttonClass()}>
        {t('thankYou.loginLink')}
      </Link>
    </div>
  );
}
