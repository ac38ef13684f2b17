import { useId, useState, type FormEvent } from 'react';
import type { AdminIdentity } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * Decision 050: whether the student answered the personal validation questions their profile
 * asks, and for admins (within their court scope) a reset with a reason: the student answers new
 * ones at the next sign-in. Nothing shows under a profile that does not ask them.
 */
export function StudentPersonalQuestionsSection({
  personal,
  canReset,
  busy,
  onReset,
}: {
  personal: AdminIdentity['personal'] | undefined;
  canReset: boolean;
  busy: boolean;
  onReset: (reason: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const reasonId = useId();
  if (!personal?.required) return null;
  const answered = personal.chosen.length > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    if (reason.trim().length < 3 || !window.confirm(t('personalQuestions.admin.confirm'))) return;
    const done = await onReset(reason.trim());
    setMessage(
      done
        ? { tone: 'success', text: t('personalQuestions.admin.done') }
        : { tone: 'error', text: t('personalQuestions.admin.failed') },
    );
    if (done) setReason('');
  }

  return (
    <section aria-labelledby="personal-questions-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="personal-questions-heading" className="text-lg font-semibold">
        {t('personalQuestions.admin.heading')}
      </h2>
      <p className="mt-2">{answered ? t('personalQuestions.admin.set') : t('personalQuestions.admin.notSet')}</p>
      {answered && (
        <ul className="mt-1 list-disc pl-6 text-sm text-slate-700">
          {personal.chosen.map((key) => (
            <li key={key}>{t(`personalQuestions.question.${key}`)}</li>
          ))}
        </ul>
      )}
      {canReset && answered && (
        <form className="mt-3 space-y-2" onSubmit={(event) => void submit(event)}>
          <label htmlFor={reasonId} className="block font-semibold text-slate-900">
            {t('personalQuestions.admin.reason')}
          </label>
          <textarea
            id={reasonId}
            required
            minLength={3}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            className="block w-full rounded-md border border-slate-400 px-3 py-2"
          />
          <Button type="submit" variant="secondary" disabled={busy || reason.trim().length < 3}>
            {t('personalQuestions.admin.reset')}
          </Button>
        </form>
      )}
      {message && (
        <div className="mt-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      )}
    </section>
  );
}
