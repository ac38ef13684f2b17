import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Court, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useTranslation } from '../../lib/i18n.ts';
import {
  AccountFields,
  NewAccountSchema,
  roleFor,
  ScopeSentence,
  scopeOf,
  useScopeSentence,
} from './staff-account-fields.tsx';
import type { ShownLink } from './staff-link-box.tsx';

/**
 * A new staff account: created without a password, with a one-time link to set one (decision 011).
 * Whom it is for (the school or a court) is asked first and chosen by nobody but the super_admin,
 * and a sentence says what the account will see before Create (decision 063).
 */
export function NewAccountForm({ courts, onCreated }: { courts: Court[]; onCreated: (shown: ShownLink) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const empty = { username: '', name: '', email: '', role: 'clerk', staff_of: '', court_id: '' } as const;
  const form = useSchemaForm(NewAccountSchema, empty);
  const errorOf = useFieldErrors(form);
  const [role, staffOf, courtId] = useWatch({ control: form.control, name: ['role', 'staff_of', 'court_id'] });
  const sentence = useScopeSentence({ staffOf, role, courtId, courts });
  const create = useMutation({
    mutationFn: (values: z.output<typeof NewAccountSchema>) =>
      callApi(staffApi.create, { body: { ...values, ...scopeOf(values) } }),
  });

  async function submit(values: z.output<typeof NewAccountSchema>) {
    setError(null);
    try {
      const { user, link } = await create.mutateAsync(values);
      form.reset(empty);
      onCreated({ name: user.name, email: user.email, link });
    } catch (caught) {
      setError(errorText(caught, t));
    }
  }

  return (
    <section aria-labelledby="new-account-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="new-account-heading" className="text-lg font-semibold">
        {t('users.newTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('users.newIntro')}</p>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(submit)(event)}
        className="mt-4 grid gap-4 sm:grid-cols-2"
      >
        <TextField
          label={t('users.username')}
          autoComplete="off"
          hint={t('users.usernameHint')}
          error={errorOf('username', t('users.usernameInvalid'))}
          {...form.register('username')}
        />
        <AccountFields
          staffOf={staffOf}
          role={role}
          fields={{
            name: form.register('name'),
            email: form.register('email'),
            role: form.register('role'),
            staffOf: form.register('staff_of', {
              onChange: () => form.setValue('role', roleFor(form.getValues('staff_of'), form.getValues('role'))),
            }),
            court: form.register('court_id'),
          }}
          errors={{
            name: errorOf('name'),
            email: errorOf('email', t('users.emailInvalid')),
            staffOf: form.formState.errors.staff_of !== undefined,
            court: form.formState.errors.court_id !== undefined,
          }}
          courts={courts}
        />
        <ScopeSentence text={sentence} className="sm:col-span-2" />
        {error && (
          <div className="sm:col-span-2">
            <Alert>{error}</Alert>
          </div>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? t('common.loading') : t('users.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}
