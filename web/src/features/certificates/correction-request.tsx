import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CORRECTION_FIELDS, type CorrectionField, CorrectionRequestSchema, correctionsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatShortDate } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { certificateQueries } from './certificate-queries.ts';

/**
 * Decision 025: "Something wrong on your certificate?": the student asks for one detail to be
 * corrected, free; the page says what is waiting, and a rejection's note from the school.
 */
export function CorrectionRequest({ studentId }: { studentId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [field, setField] = useState<CorrectionField>('last_name');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<'value' | 'reason' | null>(null);
  const requests = useQuery(certificateQueries.corrections(studentId));
  const send = useMutation({
    mutationFn: () => callApi(correctionsApi.request, { params: { id: studentId }, body: { field, value, reason } }),
    onSuccess: async () => {
      setOpen(false);
      setValue('');
      setReason('');
      await queryClient.invalidateQueries({ queryKey: certificateQueries.corrections(studentId).queryKey });
      await queryClient.invalidateQueries({ queryKey: certificateQueries.list(studentId).queryKey });
    },
  });
  const latest = requests.data?.[0];
  const pending = latest?.status === 'pending';

  function submit() {
    const checked = CorrectionRequestSchema.safeParse({ field, value, reason });
    if (!checked.success) {
      setInvalid(checked.error.issues[0]?.path[0] === 'reason' ? 'reason' : 'value');
      return;
    }
    setInvalid(null);
    send.mutate();
  }

  return (
    <section aria-labelledby="correction-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="correction-heading" className="text-lg font-semibold">
        {t('correction.heading')}
      </h2>
      {latest && (
        <p role="status" className="mt-2 text-slate-800">
          {latest.status === 'pending'
            ? t('correction.pending', {
                date: formatShortDate(latest.created_at),
                field: t(`correction.fields.${latest.field}`),
                value: latest.value,
              })
            : latest.status === 'rejected'
              ? t('correction.rejected', { note: latest.note ?? '' })
              : t('correction.approved', { number: latest.certificate_number ?? '' })}
        </p>
      )}
      {!pending && (
        <>
          <p className="mt-2 text-slate-700">{t('correction.intro')}</p>
          <Button className="mt-3" variant="secondary" onClick={() => setOpen(true)}>
            {t('correction.open')}
          </Button>
        </>
      )}
      <Dialog
        open={open}
        title={t('correction.title')}
        onClose={() => setOpen(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={submit} disabled={send.isPending}>
              {send.isPending ? t('common.loading') : t('correction.send')}
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <SelectField
            label={t('correction.field')}
            value={field}
            onChange={(event) => setField(CORRECTION_FIELDS.find((known) => known === event.target.value) ?? field)}
          >
            {CORRECTION_FIELDS.map((known) => (
              <option key={known} value={known}>
                {t(`correction.fields.${known}`)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('correction.value')}
            hint={field === 'dob' ? t('correction.dobHint') : undefined}
            value={value}
            maxLength={100}
            error={invalid === 'value' ? t('correction.badValue') : undefined}
            onChange={(event) => setValue(event.target.value)}
          />
          <TextField
            label={t('correction.reason')}
            value={reason}
            maxLength={500}
            error={invalid === 'reason' ? t('correction.badReason') : undefined}
            onChange={(event) => setReason(event.target.value)}
          />
          {send.isError && <Alert>{errorText(send.error, t)}</Alert>}
        </div>
      </Dialog>
    </section>
  );
}
