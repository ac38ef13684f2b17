import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { remindersApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { reminderQueries } from './reminder-queries.ts';

/**
 * Decision 059: the student turns the emails before their court's date and the end of their time
 * to finish off (or on again). The server keeps the setting; the switch shows what it answered.
 */
export function ReminderSwitch({ studentId }: { studentId: number }) {
  const { t } = useTranslation();
  const switchId = useId();
  const queryClient = useQueryClient();
  const setting = useQuery(reminderQueries.setting(studentId));
  const save = useMutation({
    mutationFn: (remindersOn: boolean) =>
      callApi(remindersApi.setSetting, { params: { id: studentId }, body: { remindersOn } }),
    onSuccess: (answer) => queryClient.setQueryData(reminderQueries.setting(studentId).queryKey, answer),
  });
  if (!setting.data) return null;
  // While a change is on its way the switch shows it; a refusal puts it back.
  const on = save.isPending ? save.variables : setting.data.remindersOn;
  return (
    <section aria-labelledby={`${switchId}-heading`} className="rounded-lg bg-white p-6 shadow">
      <h2 id={`${switchId}-heading`} className="text-lg font-semibold">
        {t('reminders.heading')}
      </h2>
      <p className="mt-2 text-slate-700">{t('reminders.intro')}</p>
      <div className="mt-3 flex items-center gap-3">
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          className="h-6 w-6 shrink-0 accent-blue-700"
          checked={on}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.checked)}
        />
        <label htmlFor={switchId} className="text-slate-900">
          {t('reminders.switch')}
        </label>
      </div>
      <p role="status" className="mt-2 text-sm text-slate-700">
        {on ? t('reminders.on') : t('reminders.off')}
      </p>
      {save.isError && <Alert>{errorText(save.error, t)}</Alert>}
    </section>
  );
}
