import { useTranslation } from '../lib/i18n.ts';
import { LANGUAGES, setLanguage, type Language } from '../lib/i18n.ts';

/** The spec's translation widget (en, es), done with the app's own translations. */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div
      role="group"
      aria-label={t('language.label')}
      className={`inline-flex rounded-md border border-slate-300 bg-white ${className}`}
    >
      {LANGUAGES.map((language: Language) => {
        const active = i18n.language === language;
        return (
          <button
            key={language}
            type="button"
            lang={language}
            aria-pressed={active}
            onClick={() => setLanguage(language)}
            className={`px-3 py-1.5 text-sm font-semibold first:rounded-l-md last:rounded-r-md ${active ? 'bg-blue-700 text-white' : 'text-slate-800 hover:bg-slate-100'}`}
          >
            {t(`language.${language}`)}
          </button>
        );
      })}
    </div>
  );
}
