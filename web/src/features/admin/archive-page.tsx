import { useState } from 'react';
import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { formatShortDate } from '../../lib/dates.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

/** A licence number or an email address, as the archive call takes it. */
const ArchiveSearchSchema = z.object({ search: z.string().trim().min(1).max(254) });

/** Spec 2 /admin/archive: certificates of every enrolment, archived too, by licence number or email. */
export function ArchivePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const results = useQuery(adminQueries.archive(search));

  const form = useSchemaForm(ArchiveSearchSchema, { search: '' });
  const errorOf = useFieldErrors(form);

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.archive')}</PageHeading>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit((values) => setSearch(values.search))(event)}
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <div className="flex-1">
          <TextField label={t('archive.searchLabel')} error={errorOf('search')} {...form.register('search')} />
        </div>
        <Button type="submit" className="sm:mt-6">
          {t('archive.search')}
        </Button>
      </form>
      {search === '' && <p className="text-slate-700">{t('archive.start')}</p>}
      {results.isError && <Alert>{t('certificates.fetchError')}</Alert>}
      {results.data?.length === 0 && <p className="text-slate-700">{t('archive.noData')}</p>}
      <ul className="grid gap-4 sm:grid-cols-2">
        {results.data?.map((certificate) => (
          <li key={certificate.id} className="rounded-lg bg-white p-4 shadow">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-semibold">{t('archive.generated')}</dt>
              <dd>{formatShortDate(certificate.generated_at)}</dd>
              <dt className="font-semibold">{t('archive.licence')}</dt>
              <dd>{certificate.dl_number}</dd>
              <dt className="font-semibold">{t('archive.email')}</dt>
              <dd className="break-all">{certificate.email}</dd>
              <dt className="font-semibold">{t('archive.number')}</dt>
              <dd>{certificate.number}</dd>
            </dl>
            <a href={certificate.file_url} className="mt-3 inline-block font-semibold text-blue-800 underline" download>
              {t('archive.download')}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
