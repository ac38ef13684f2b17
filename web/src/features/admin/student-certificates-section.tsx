import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import type { AdminStudent } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { formatDay, formatShortDate, schoolToday } from '../../lib/dates.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useTranslation } from '../../lib/i18n.ts';

/** Every certificate of the student, each with its emails and, for those who may, Resend. */
export function StudentCertificatesSection({
  certificates,
  canResend,
  busy,
  onResend,
}: {
  certificates: AdminStudent['certificates'];
  canResend: boolean;
  busy: boolean;
  onResend: (deliveryId: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="certificates-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="certificates-heading" className="text-lg font-semibold">
        {t('adminStudent.certificates')}
      </h2>
      {certificates.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.noCertificates')}</p>}
      <ul className="mt-2 divide-y divide-slate-200">
        {certificates.map((certificate) => (
          <li key={certificate.id} className="py-3">
            <p className="font-semibold">
              {certificate.number} · {formatShortDate(certificate.generated_at)}
            </p>
            <ul className="mt-1 space-y-1 text-sm">
              {certificate.deliveries.map((delivery) => (
                <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                  <span>
                    {t(`adminStudent.recipient.${delivery.recipient}`)} ({delivery.email}):{' '}
                    {t(`adminStudent.delivery.${delivery.status}`)}
                    {delivery.last_error ? ` (${delivery.last_error})` : ''}
                  </span>
                  {(delivery.status === 'sent' || delivery.status === 'failed') && canResend && (
                    <button
                      type="button"
                      className="font-semibold text-blue-800 underline"
                      disabled={busy}
                      onClick={() => onResend(delivery.id)}
                    >
                      {t('adminStudent.resend')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A completion date: a day of the calendar, not after today on the school's. */
const GenerateSchema = z.object({
  completionDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((day) => day <= schoolToday()),
});

/**
 * Spec 2: a super_admin generates a certificate with a completion date, chosen with the browser's
 * date picker and said back in the reader's language; the server issues a certificate
 * only for a finished course (decision 016).
 */
export function GenerateCertificateForm({
  complete,
  busy,
  onGenerate,
}: {
  complete: boolean;
  busy: boolean;
  onGenerate: (completionDate: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(GenerateSchema, { completionDate: '' });
  const errorOf = useFieldErrors(form);
  const chosen = useWatch({ control: form.control, name: 'completionDate' });
  const hint = !complete
    ? t('adminStudent.generateNeedsCompletion')
    : /^\d{4}-\d{2}-\d{2}$/.test(chosen)
      ? formatDay(chosen)
      : undefined;
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit(async ({ completionDate }) => {
          // Spec 2: the page reloads afterwards, so the form starts empty again.
          if (await onGenerate(completionDate)) form.reset();
        })(event)
      }
      className="flex flex-col gap-3 rounded-lg bg-white p-6 shadow sm:flex-row sm:items-start"
    >
      <div className="flex-1">
        <TextField
          label={t('adminStudent.completionDate')}
          type="date"
          max={schoolToday()}
          disabled={!complete}
          hint={hint}
          error={errorOf('completionDate', t('adminStudent.completionDateInvalid'))}
          {...form.register('completionDate')}
        />
      </div>
      {/* Submitting from the first click, before the request starts: a double click issues one certificate. */}
      <Button type="submit" className="sm:mt-6" disabled={busy || form.formState.isSubmitting || !complete}>
        {t('adminStudent.generate')}
      </Button>
    </form>
  );
}
