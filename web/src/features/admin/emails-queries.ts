import { queryOptions } from '@tanstack/react-query';
import { type EmailLanguageCode, emailsApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The email templates preview's queries (decision 057). */
export const emailQueries = {
  /** The templates: they change only with a new build of the server. */
  templates: () =>
    queryOptions({ queryKey: ['admin-email-templates'], queryFn: () => callApi(emailsApi.list), staleTime: Infinity }),
  /** One template rendered from sample data in a language. */
  preview: (name: string, language: EmailLanguageCode) =>
    queryOptions({
      queryKey: ['admin-email-preview', name, language],
      queryFn: () => callApi(emailsApi.preview, { params: { name }, query: { language } }),
      enabled: name !== '',
      retry: false,
    }),
};

/** Where the preview frame loads the email's HTML from: a document with its own policy (decision 057). */
export function emailDocumentUrl(name: string, language: EmailLanguageCode): string {
  return `/api/admin/emails/${encodeURIComponent(name)}/html?language=${language}`;
}
