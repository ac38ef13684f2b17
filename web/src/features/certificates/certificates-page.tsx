import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { type Certificate, registrationApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button, buttonClass } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { callApi } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { useCompletedChapters } from '../progress/progress-queries.ts';
import { isFinalComplete } from '../progress/final-complete.ts';
import { formatMoment, formatShortDate } from '../../lib/dates.ts';
import { usePublicConfig } from '../../lib/queries.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { CorrectionRequest } from './correction-request.tsx';
import { certificateQueries } from './certificate-queries.ts';
import { splitCertificates } from './current-certificate.ts';

/**
 * Decision 025: where a certificate is, step by step, with the school's dates and times; a step that
 * failed says what happens next.
 */
function Timeline({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation();
  const supportEmail = usePublicConfig().data?.supportEmail ?? '';
  const steps = certificate.timeline.filter((step) => step.step !== 'passed' && step.step !== 'issued');
  return (
    <ol
      className="mt-2 space-y-1 text-sm"
      aria-label={t('certificates.timeline.label', { number: certificate.number })}
    >
      {steps.map((step) => (
        <li key={step.step} className="flex gap-2">
          <span
            aria-hidden="true"
            className={
              step.state === 'done' ? 'text-green-800' : step.state === 'failed' ? 'text-red-800' : 'text-slate-600'
            }
          >
            {step.state === 'done' ? '✓' : step.state === 'failed' ? '!' : step.state === 'cancelled' ? '–' : '○'}
          </span>
          <span className="text-slate-800">
            {t(`certificates.timeline.${step.step}`)}
            {': '}
            {step.state === 'done'
              ? step.at
                ? formatMoment(step.at)
                : t('certificates.timeline.done')
              : step.state === 'failed'
                ? t('certificates.timeline.failed', { email: supportEmail })
                : t(`certificates.timeline.${step.state}`)}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * Spec 2 /certificate: the current certificate first with its Download Certificate button, the
 * replaced ones under Past Certificates, each downloadable, and Retake Course once complete, as a
 * secondary action behind its confirmation (spec 2's words).
 */
export function CertificatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useStoredUser();
  const studentId = user?.id ?? 0;
  const completed = useCompletedChapters();
  const certificates = useQuery({ ...certificateQueries.list(studentId), enabled: studentId > 0 });
  const [confirming, setConfirming] = useState(false);
  const [retaking, setRetaking] = useState(false);
  const [retakeError, setRetakeError] = useState(false);
  const finalComplete = isFinalComplete(completed.data, user);
  const { current, past } = splitCertificates(certificates.data ?? []);
  /** A replaced certificate names the one that replaced it, where the list holds it. */
  const replacedText = (certificate: Certificate) => {
    const date = formatShortDate(certificate.superseded_at ?? certificate.generated_at);
    const by = certificates.data?.find((other) => other.replaces === certificate.number);
    return by ? t('certificates.replacedBy', { number: by.number, date }) : t('certificates.superseded', { date });
  };

  async function retake() {
    setRetaking(true);
    setRetakeError(false);
    try {
      await callApi(registrationApi.retake, { params: { id: studentId } });
      // Spec 4: on a 204 all local storage is cleared and the student goes to /register.
      localStorage.clear();
      await navigate('/register', { replace: true });
    } catch {
      setRetaking(false);
      setRetakeError(true);
    }
  }

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('certificates.title')}</PageHeading>
      {certificates.isError && <Alert>{t('certificates.fetchError')}</Alert>}
      {certificates.isLoading && <p>{t('common.loading')}</p>}
      {current && (
        <section aria-labelledby="current-certificate" className="rounded-lg bg-white p-4 shadow sm:p-6">
          <h2 id="current-certificate" className="text-xl font-semibold">
            {t('certificates.current')}
          </h2>
          <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div>
              <p className="font-semibold text-slate-900">{formatShortDate(current.generated_at)}</p>
              <p className="text-sm text-slate-700">{t('certificates.number', { number: current.number })}</p>
              {current.replaces && (
                <p className="text-sm text-slate-700">{t('certificates.replaces', { number: current.replaces })}</p>
              )}
              <Timeline certificate={current} />
            </div>
            <a href={current.file_url} className={buttonClass()} download>
              {t('certificates.download')}
            </a>
          </div>
        </section>
      )}
      {(past.length > 0 || certificates.data?.length === 0) && (
        <section aria-labelledby="past-certificates" className="rounded-lg bg-white p-4 shadow sm:p-6">
          <h2 id="past-certificates" className="text-xl font-semibold">
            {t('certificates.past')}
          </h2>
          {certificates.data?.length === 0 && <p className="mt-3 text-slate-700">{t('certificates.none')}</p>}
          <ul className="mt-3 divide-y divide-slate-200">
            {past.map((certificate) => (
              <li
                key={certificate.id}
                className="flex flex-col gap-2 py-4 sm:flex-row sm:items-start sm:justify-between"
              >
                <div>
                  <p className="font-semibold text-slate-900">{formatShortDate(certificate.generated_at)}</p>
                  <p className="text-sm text-slate-700">{t('certificates.number', { number: certificate.number })}</p>
                  <p className="text-sm text-slate-700">{replacedText(certificate)}</p>
                </div>
                <a href={certificate.file_url} className="font-semibold text-blue-800 underline" download>
                  {t('certificates.download')}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(certificates.data?.length ?? 0) > 0 && <CorrectionRequest studentId={studentId} />}
      {finalComplete && (
        <div>
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            {t('certificates.retake')}
          </Button>
        </div>
      )}
      <Dialog
        open={confirming}
        title={t('certificates.confirmTitle')}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" onClick={() => void retake()} disabled={retaking}>
              {retaking ? t('common.loading') : t('certificates.confirmYes')}
            </Button>
          </>
        }
      >
        <p>{t('certificates.confirmBody')}</p>
        {retakeError && <Alert>{t('errors.unexpected')}</Alert>}
      </Dialog>
    </div>
  );
}
