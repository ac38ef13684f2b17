import { authApi } from '@ts/contract';
import { callApi } from '../lib/api.ts';
import { useTranslation } from '../lib/i18n.ts';
import { LANGUAGES, setLanguage, type Language } from '../lib/i18n.ts';
import { readStoredUser } from '../lib/stored-user.ts';

/**
 * Switches the page, and for a signed-in student also the language the school writes to them in
 * (decision 056). The page has switched whatever the call's fate: a failed save is tried again at
 * the next switch.
 */
function switchLanguage(language: Language): void {
  setLanguage(language);
  if (readStoredUser()?.type !== 'student') return;
  callApi(authApi.setMyLanguage, { body: { language } }).catch(() => undefined);
}

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
            onClick={() => {
              if (!active) switchLanguage(language);
            }}
            className={`px-3 py-1.5 text-sm font-semibold first:rounded-l-md last:rounded-r-md ${active ? 'bg-blue-700 text-white' : 'text-slate-800 hover:bg-slate-100'}`}
          >
            {t(`language.${language}`)}
          </button>
        );
      })}
    </div>
  );
}
