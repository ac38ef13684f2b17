import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { ApiError } from '../../lib/api.ts';
import { PageHeading } from '../../components/page-heading.tsx';

/**
 * The shape both login pages share: required fields, one submit, and spec 8's message in red
 * with the button re-enabled when sign-in fails.
 */
export function LoginForm({
  title,
  intro,
  onSubmit,
  children,
  footer,
}: {
  title: string;
  intro: string;
  onSubmit: (form: FormData) => Promise<void>;
  children: ReactNode;
  footer: ReactNode;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      await onSubmit(new FormData(event.currentTarget));
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 429) setError(t('login.tooMany'));
      else if (caught instanceof ApiError && caught.status >= 500) setError(t('errors.unexpected'));
      else setError(t('login.invalid'));
      setSubmitting(false);
    }
  }

  return (
    <div className="mx-auto max-w-md">
      <PageHeading className="text-2xl font-bold text-slate-900">{title}</PageHeading>
      <p className="mt-2 text-slate-700">{intro}</p>
      <form onSubmit={(event) => void handleSubmit(event)} className="mt-6 space-y-4 rounded-lg bg-white p-6 shadow">
        {children}
        {error && <Alert>{error}</Alert>}
        <Button type="submit" disabled={submitting} className="w-full">
          {submitting ? t('common.loading') : t('login.submit')}
        </Button>
      </form>
      <div className="mt-6 text-center text-slate-700">{footer}</div>
    </div>
  );
}
