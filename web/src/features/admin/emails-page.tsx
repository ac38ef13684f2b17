import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { EMAIL_LANGUAGES, type EmailLanguageCode, type EmailTemplateSummary } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { SelectField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { emailDocumentUrl, emailQueries } from './emails-queries.ts';

const AUDIENCES: EmailTemplateSummary['audience'][] = ['student', 'court', 'staff'];

function isEmailLanguage(value: string | null): value is EmailLanguageCode {
  return EMAIL_LANGUAGES.some((language) => language === value);
}

/**
 * Decision 057: staff read every email the school sends, in each language, as it is sent: the
 * subject, the HTML (in a sandboxed frame) and the plain-text part. The choice lives in the
 * address, so a preview can be linked to.
 */
export function EmailsPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const templates = useQuery(emailQueries.templates());
  const asked = searchParams.get('template');
  const list = templates.data ?? [];
  const name = list.find((template) => template.name === asked)?.name ?? list[0]?.name ?? '';
  const askedLanguage = searchParams.get('language');
  const language: EmailLanguageCode = isEmailLanguage(askedLanguage) ? askedLanguage : 'en';
  const preview = useQuery(emailQueries.preview(name, language));
  const choose = (next: { template?: string; language?: string }) =>
    setSearchParams({ template: next.template ?? name, language: next.language ?? language }, { replace: true });
  const label = (templateName: string) => t(`emails.templates.${templateName}`, { defaultValue: templateName });

  return (
    <div className="space-y-6">
      <PageHeading>{t('admin.pages.emails')}</PageHeading>
      <p className="max-w-prose text-slate-700">{t('emails.intro')}</p>
      {templates.isLoading && <p>{t('common.loading')}</p>}
      {templates.isError && <Alert>{t('emails.loadError')}</Alert>}
      {list.length > 0 && (
        <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
          <SelectField
            label={t('emails.template')}
            value={name}
            onChange={(event) => choose({ template: event.target.value })}
          >
            {AUDIENCES.map((audience) => {
              const ofAudience = list.filter((template) => template.audience === audience);
              if (ofAudience.length === 0) return null;
              return (
                <optgroup key={audience} label={t(`emails.audiences.${audience}`)}>
                  {ofAudience.map((template) => (
                    <option key={template.name} value={template.name}>
                      {label(template.name)}
                    </option>
                  ))}
                </optgroup>
              );
            })}
          </SelectField>
          <SelectField
            label={t('emails.language')}
            value={language}
            onChange={(event) => choose({ language: event.target.value })}
          >
            {EMAIL_LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </SelectField>
        </div>
      )}
      {preview.isError && <Alert>{t('emails.previewError')}</Alert>}
      {preview.data && (
        <div className="space-y-6">
          {preview.data.language !== language && (
            <p role="status" className="max-w-prose rounded-md bg-amber-50 p-3 text-slate-900">
              {t('emails.englishOnly')}
            </p>
          )}
          <section aria-labelledby="email-subject" className="rounded-lg bg-white p-4 shadow sm:p-6">
            <h2 id="email-subject" className="text-lg font-semibold">
              {t('emails.subject')}
            </h2>
            <p className="mt-2 break-words text-slate-900">{preview.data.subject}</p>
          </section>
          <section aria-labelledby="email-html" className="rounded-lg bg-white p-4 shadow sm:p-6">
            <h2 id="email-html" className="text-lg font-semibold">
              {t('emails.html')}
            </h2>
            <iframe
              // An origin of its own, so nothing in it reaches the page; its document's own policy runs
              // no script at all (decision 057). Scripts are not refused by the sandbox too, so that
              // tools reading the page (axe, the browser tests) can read the email.
              sandbox="allow-scripts"
              title={t('emails.htmlFrame', { name: label(preview.data.name) })}
              src={emailDocumentUrl(preview.data.name, preview.data.language)}
              className="mt-3 h-[40rem] w-full rounded border border-slate-300 bg-white"
            />
          </section>
          <section aria-labelledby="email-text" className="rounded-lg bg-white p-4 shadow sm:p-6">
            <h2 id="email-text" className="text-lg font-semibold">
              {t('emails.text')}
            </h2>
            <pre className="mt-3 font-mono text-sm break-words whitespace-pre-wrap text-slate-900">
              {preview.data.text}
            </pre>
          </section>
        </div>
      )}
    </div>
  );
}
