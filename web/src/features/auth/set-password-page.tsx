import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { FieldErrors } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { z } from 'zod';
import { STAFF_PASSWORD_MIN_LENGTH, StaffPasswordSchema, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { PasswordPair } from '../../components/password-pair.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { unexpectedErrorText } from '../../lib/error-text.ts';
import { weakPasswordMessage } from './weak-password.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { PageHeading } from '../../components/page-heading.tsx';

/** The set-password call's own password check, with the confirmation that must match. */
const SetPasswordFormSchema = z
  .object({ password: StaffPasswordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, { path: ['confirm'] });

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
  const form = useSchemaForm(SetPasswordFormSchema, { password: '', confirm: '' });
  const errorOf = useFieldErrors(form);
  const setPassword = useMutation({
    mutationFn: (password: string) => callApi(staffApi.setPassword, { body: { token, password } }),
  });

  async function submit({ password }: z.output<typeof SetPasswordFormSchema>) {
    setError(null);
    try {
      await setPassword.mutateAsync(password);
      // The used link is of no further use: take it out of the address bar and the history.
      void navigate(location.pathname, { replace: true });
      setDone(true);
    } catch (caught) {
      const weak = weakPasswordMessage(caught, t);
      if (weak) setError(weak);
      else if (caught instanceof ApiError && caught.code === 'INVALID_LINK') setError(t('setPassword.invalidLink'));
      else if (caught instanceof ApiError && caught.status === 429) setError(t('setPassword.tooMany'));
      else setError(unexpectedErrorText(caught, t));
    }
  }

  // A confirmation that differs is also said in the words the change-password page uses.
  function refuse(errors: FieldErrors<{ confirm: string }>) {
    const mismatch = errors.confirm !== undefined && form.getValues('confirm') !== '';
    setError(mismatch ? t('setPassword.mismatch') : null);
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
          <form
            noValidate
            onSubmit={(event) => void form.handleSubmit(submit, refuse)(event)}
            className="mt-6 space-y-4 rounded-lg bg-white p-6 shadow"
          >
            <PasswordPair
              newPassword={{
                label: t('setPassword.new'),
                error: errorOf('password', t('setPassword.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH })),
                ...form.register('password'),
              }}
              confirmation={{
                label: t('setPassword.confirm'),
                error: errorOf('confirm', t('passwords.noMatch')),
                ...form.register('confirm'),
              }}
              hint={t('setPassword.hint', { min: STAFF_PASSWORD_MIN_LENGTH })}
            />
            {error && <Alert>{error}</Alert>}
            <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
              {form.formState.isSubmitting ? t('common.loading') : t('setPassword.submit')}
            </Button>
          </form>
        </>
      )}
    </div>
  );
}
