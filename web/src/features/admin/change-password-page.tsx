import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_PASSWORD_MIN_LENGTH, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { PageHeading } from '../../components/page-heading.tsx';

type Message = { tone: 'error' | 'success'; text: string };

/**
 * Spec 2 /admin/change-password, 5 (new and confirm must match) and 8 (the two messages). The
 * server ends the member's other sessions; this one stays signed in.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const [message, setMessage] = useState<Message | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const currentPw = String(data.get('currentPw') ?? '');
    const newPw = String(data.get('newPw') ?? '');
    setMessage(null);
    if (newPw !== String(data.get('confirmPw') ?? '')) {
      setMessage({ tone: 'error', text: t('changePassword.mismatch') });
      return;
    }
    if (newPw.length < STAFF_PASSWORD_MIN_LENGTH) {
      setMessage({ tone: 'error', text: t('changePassword.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH }) });
      return;
    }
    if (!user) return;
    setSubmitting(true);
    try {
      await callApi(staffApi.changePassword, { body: { userId: user.id, currentPw, newPw } });
      form.reset();
      setMessage({ tone: 'success', text: t('changePassword.success') });
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      setMessage({ tone: 'error', text: tooMany ? t('changePassword.tooMany') : t('changePassword.failure') });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('admin.pages.changePassword')}</PageHeading>
      <form onSubmit={(event) => void submit(event)} className="max-w-md space-y-4 rounded-lg bg-white p-6 shadow">
        <TextField
          label={t('changePassword.current')}
          name="currentPw"
          type="password"
          autoComplete="current-password"
          required
        />
        <TextField
          label={t('changePassword.new')}
          name="newPw"
          type="password"
          autoComplete="new-password"
          hint={t('changePassword.hint', { min: STAFF_PASSWORD_MIN_LENGTH })}
          required
        />
        <TextField
          label={t('changePassword.confirm')}
          name="confirmPw"
          type="password"
          autoComplete="new-password"
          required
        />
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <Button type="submit" disabled={submitting}>
          {submitting ? t('common.loading') : t('changePassword.submit')}
        </Button>
      </form>
    </div>
  );
}
