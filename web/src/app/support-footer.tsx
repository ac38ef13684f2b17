import { useTranslation } from '../lib/i18n.ts';
import { usePublicConfig } from '../lib/queries.ts';

/** Spec 1: the support contact address, from SUPPORT_EMAIL. */
export function SupportFooter() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  if (!config.data) return null;
  const email = config.data.supportEmail;
  return (
    <footer className="border-t border-slate-200 bg-white px-4 py-4 text-center text-sm text-slate-700">
      {t('support.text')}{' '}
      <a className="font-semibold text-blue-800 underline" href={`mailto:${email}`}>
        {email}
      </a>
    </footer>
  );
}
