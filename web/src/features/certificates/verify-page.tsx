import { formatShortDate } from '../../lib/dates.ts';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { Alert } from '../../components/alert.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { certificateQueries } from './certificate-queries.ts';

/** The page the certificate's QR code opens: whether the certificate is genuine, and little else. */
export function VerifyPage() {
  const { t } = useTranslation();
  const { number = '' } = useParams();
  const result = useQuery(certificateQueries.verify(number));
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <PageHeading className="text-2xl font-bold">{t('verify.title')}</PageHeading>
      <p className="text-slate-700">{t('verify.number', { number })}</p>
      {result.isLoading && <p>{t('common.loading')}</p>}
      {result.isError && <Alert>{t('errors.unexpected')}</Alert>}
      {/* A certificate this school issued and later replaced is never shown as one it did not issue. */}
      {result.data && !result.data.valid && result.data.superseded_at && (
        <Alert>
          {result.data.superseded_by
            ? t('verify.superseded', {
                number: result.data.superseded_by,
                date: formatShortDate(result.data.superseded_at),
              })
            : t('verify.supersededUnnamed', { date: formatShortDate(result.data.superseded_at) })}
        </Alert>
      )}
      {result.data && !result.data.valid && !result.data.superseded_at && <Alert>{t('verify.notFound')}</Alert>}
      {result.data?.valid && (
        <div className="space-y-3 rounded-lg border-2 border-green-700 bg-white p-6">
          <p className="text-lg font-bold text-green-800">✓ {t('verify.genuine')}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="font-semibold">{t('verify.name')}</dt>
            <dd>{result.data.student_name}</dd>
            <dt className="font-semibold">{t('verify.completed')}</dt>
            <dd>{result.data.completion_date}</dd>
            <dt className="font-semibold">{t('verify.court')}</dt>
            <dd>{result.data.court_name}</dd>
          </dl>
        </div>
      )}
    </div>
  );
}
