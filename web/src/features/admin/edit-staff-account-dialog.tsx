import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Court, type StaffAccount, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useTranslation } from '../../lib/i18n.ts';
import {
  AccountFields,
  EditAccountSchema,
  roleFor,
  ScopeSentence,
  scopeOf,
  staffOfAccount,
  useScopeSentence,
} from './staff-account-fields.tsx';

/**
 * A staff account's name, email, role, court, and whether it is disabled. When the role, the scope
 * or the court changes, a sentence says what the account will see from then on (decision 063).
 */
export function EditStaffAccountDialog({
  account,
  courts,
  onClose,
  onSaved,
}: {
  account: StaffAccount;
  courts: Court[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const [error, setError] = useState<string | null>(null);
  const form = useSchemaForm(EditAccountSchema, {
    name: account.name,
    email: account.email,
    role: account.role,
    staff_of: staffOfAccount(account),
    court_id: account.court_id === null ? '' : String(account.court_id),
    disabled: account.disabled_at !== null,
  });
  const errorOf = useFieldErrors(form);
  const [role, staffOf, courtId] = useWatch({ control: form.control, name: ['role', 'staff_of', 'court_id'] });
  const changed =
    role !== account.role ||
    staffOf !== staffOfAccount(account) ||
    (staffOf === 'court' && courtId !== String(account.court_id));
  const sentence = useScopeSentence({ staffOf, role, courtId, courts });
  const update = useMutation({
    mutationFn: (values: z.output<typeof EditAccountSchema>) =>
      callApi(staffApi.update, { params: { id: account.id }, body: { ...values, ...scopeOf(values) } }),
  });

  async function submit(values: z.output<typeof EditAccountSchema>) {
    setError(null);
    try {
      await update.mutateAsync(values);
      onSaved();
    } catch (caught) {
      setError(errorText(caught, t));
    }
  }

  return (
    <Dialog
      open
      title={t('users.editTitle', { name: account.name })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? t('common.loading') : t('users.save')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="space-y-4">
        <p className="text-sm text-slate-700">
          {t('users.username')}: <span className="font-semibold text-slate-900">{account.username}</span>
        </p>
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
        <ScopeSentence text={changed ? sentence : ''} />
        <div className="flex items-start gap-2">
          <input
            id={`${formId}-disabled`}
            type="checkbox"
            {...form.register('disabled')}
            className="mt-1 h-5 w-5"
            aria-describedby={`${formId}-disabled-hint`}
          />
          <div>
            <label htmlFor={`${formId}-disabled`} className="font-medium text-slate-900">
              {t('users.disabled')}
            </label>
            <p id={`${formId}-disabled-hint`} className="text-sm text-slate-700">
              {t('users.disabledHint')}
            </p>
          </div>
        </div>
        {error && <Alert>{error}</Alert>}
      </form>
    </Dialog>
  );
}
