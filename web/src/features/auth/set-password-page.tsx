import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { STAFF_PASSWORD_MIN_LENGTH, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { PageHeading } from '../../components/page-heading.tsx';

/** The token travels in the fragment (`#token=...`), which the browser never sends to a server. */
function tokenFrom(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** Public: a staff member chooses a password with the one-time link from their email. */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFrom(location.hash));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    setError(null);
    if (password !== String(data.get('confirm') ?? '')) {
      setError(t('setPassword.mismatch'));
      return;
    }
    if (password.length < STAFF_PASSWORD_MIN_LENGTH) {
      setError(t('setPassword.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH }));
      return;
    }
    setSubmitting(true);
    try {
      await callApi(staffApi.setPassword, { body: { token, password } });
      // The used link is of no further use: take it out of the address bar and the history.
      void navigate(location.pathname, { replace: true });
      setDone(true);
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'INVALID_LINK') setError(t('setPassword.invalidLink'));
      else if (caught instanceof ApiError && caught.status === 429) setError(t('setPassword.tooMany'));
      else setError(t('errors.unexpected'));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="mx-auto max-w-md">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('setPassword.title')}</PageHeading>
      {done ? (
        <div className="mt-6 space-y-4">
          <Alert tone="success">{t('setPassword.success')}</Alert>
          <Link to="/admin-login" className="font-semibold text-blue-800 underline">
            {t('setPassword.signIn')}
          </Link>
        </div>
      ) : token.length < 10 ? (
        <div className="mt-6">
          <Alert>{t('setPassword.invalidLink')}</Alert>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-700">{t('setPassword.intro')}</p>
          <form onSubmit={(event) => void submit(event)} className="mt-6 space-y-4 rounded-lg bg-white p-6 shadow">
            <TextField
              label={t('setPassword.new')}
              name="password"
              type="password"
              autoComplete="new-password"
              hint={t('setPassword.hint', { min: STAFF_PASSWORD_MIN_LENGTH })}
              required
            />
            <TextField
              label={t('setPassword.confirm')}
              name="confirm"
              type="password"
              autoComplete="new-password"
              required
            />
            {error && <Alert>{error}</Alert>}
            <Button type="submit" disabled={submitting} className="w-full">
              {submitting ? t('common.loading') : t('setPassword.submit')}
            </Button>
          </form>
        </>
      )}
    </div>
  );
}
