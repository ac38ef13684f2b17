import { useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { z } from 'zod';
import { STAFF_PASSWORD_MIN_LENGTH, StaffPasswordSchema, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { PasswordPair } from '../../components/password-pair.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { weakPasswordMessage } from '../auth/weak-password.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useStoredUser } from '../../lib/session.ts';
import { PageHeading } from '../../components/page-heading.tsx';

type Message = { tone: 'error' | 'success'; text: string };

/** The change-password call's own checks, with the confirmation that must match (spec 5). */
const ChangePasswordFormSchema = z
  .object({
    currentPw: z.string().min(1).max(200),
    newPw: StaffPasswordSchema,
    confirmPw: z.string(),
  })
  .refine((values) => values.newPw === values.confirmPw, { path: ['confirmPw'] });

/**
 * Spec 2 /admin/change-password, 5 (new and confirm must match) and 8 (the two messages). The
 * server ends the member's other sessions; this one stays signed in.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const [message, setMessage] = useState<Message | null>(null);
  const form = useSchemaForm(ChangePasswordFormSchema, { currentPw: '', newPw: '', confirmPw: '' });
  const errorOf = useFieldErrors(form);
  const change = useMutation({
    mutationFn: (body: { userId: number; currentPw: string; newPw: string }) =>
      callApi(staffApi.changePassword, { body }),
  });

  async function submit({ currentPw, newPw }: z.output<typeof ChangePasswordFormSchema>) {
    setMessage(null);
    if (!user) return;
    try {
      await change.mutateAsync({ userId: user.id, currentPw, newPw });
      form.reset();
      setMessage({ tone: 'success', text: t('changePassword.success') });
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      const weak = weakPasswordMessage(error, t);
      setMessage({
        tone: 'error',
        text: weak ?? (tooMany ? t('changePassword.tooMany') : t('changePassword.failure')),
      });
    }
  }

  // Spec 8: a confirmation that differs is said in the spec's words, under the form too.
  function refuse(errors: FieldErrors<{ confirmPw: string }>) {
    const mismatch = errors.confirmPw !== undefined && form.getValues('confirmPw') !== '';
    setMessage(mismatch ? { tone: 'error', text: t('changePassword.mismatch') } : null);
  }

  const tooShort = t('changePassword.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH });
  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('admin.pages.changePassword')}</PageHeading>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(submit, refuse)(event)}
        className="max-w-md space-y-4 rounded-lg bg-white p-6 shadow"
      >
        <TextField
          label={t('changePassword.current')}
          type="password"
          autoComplete="current-password"
          error={errorOf('currentPw')}
          {...form.register('currentPw')}
        />
        <PasswordPair
          newPassword={{ label: t('changePassword.new'), error: errorOf('newPw', tooShort), ...form.register('newPw') }}
          confirmation={{
            label: t('changePassword.confirm'),
            error: errorOf('confirmPw', t('passwords.noMatch')),
            ...form.register('confirmPw'),
          }}
          hint={t('changePassword.hint', { min: STAFF_PASSWORD_MIN_LENGTH })}
        />
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('common.loading') : t('changePassword.submit')}
        </Button>
      </form>
    </div>
  );
}
