import { formatMoment } from '../../lib/dates.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from '../../lib/i18n.ts';
import {
  SET_PASSWORD_LINK_HOURS,
  type Court,
  type EndpointOutput,
  type StaffAccount,
  StaffAccountInputSchema,
  StaffUsernameSchema,
  staffApi,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useCourts } from '../../lib/queries.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

type Role = StaffAccount['role'];
type SetPasswordLink = EndpointOutput<typeof staffApi.issueSetPasswordLink>;
interface ShownLink {
  name: string;
  email: string;
  link: SetPasswordLink;
}

const ROLES: Role[] = ['super_admin', 'admin', 'clerk'];

function statusOf(account: StaffAccount): 'disabled' | 'waiting' | 'active' {
  if (account.disabled_at !== null) return 'disabled';
  return account.password_set ? 'active' : 'waiting';
}

const STATUS_STYLES = {
  active: 'bg-green-100 text-green-900',
  waiting: 'bg-amber-100 text-amber-900',
  disabled: 'bg-slate-200 text-slate-800',
} as const;

/**
 * What both staff forms hold: the contract's account checks, with the court as the select gives
 * it ('' for all courts), which a super_admin never has (decision 011).
 */
const AccountFieldsSchema = z.object({
  name: StaffAccountInputSchema.shape.name,
  email: StaffAccountInputSchema.shape.email,
  role: StaffAccountInputSchema.shape.role,
  court_id: z.string(),
});
const NewAccountSchema = AccountFieldsSchema.extend({ username: StaffUsernameSchema });
const EditAccountSchema = AccountFieldsSchema.extend({ disabled: z.boolean() });

/** The court an account is limited to: none for a super_admin or "All courts". */
function courtIdOf(values: { role: Role; court_id: string }): number | null {
  return mayBeCourtLimited(values.role) && values.court_id !== '' ? Number(values.court_id) : null;
}

/**
 * The fields both staff forms share: name, email, role, and the court select for an admin or a
 * clerk: a court's own clerk or admin sees only that court's students, "All courts" makes a full
 * one; a super_admin is never limited (decision 011).
 */
function AccountFields({
  role,
  fields,
  errors,
  courts,
}: {
  role: Role;
  fields: Record<'name' | 'email' | 'role' | 'court', UseFormRegisterReturn>;
  errors: { name: string | undefined; email: string | undefined };
  courts: Court[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField label={t('users.name')} autoComplete="off" error={errors.name} {...fields.name} />
      <TextField label={t('users.email')} type="email" autoComplete="off" error={errors.email} {...fields.email} />
      <SelectField label={t('users.role')} {...fields.role}>
        {ROLES.map((value) => (
          <option key={value} value={value}>
            {t(`users.roles.${value}`)}
          </option>
        ))}
      </SelectField>
      {mayBeCourtLimited(role) && (
        <SelectField label={t('users.court')} {...fields.court}>
          <option value="">{role === 'admin' ? t('users.allCourts') : t('users.allCourtsShort')}</option>
          {courts.map((court) => (
            <option key={court.id} value={court.id}>
              {court.name}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}

function mayBeCourtLimited(role: Role): boolean {
  return role !== 'super_admin';
}

/** The one-time link, shown once: it was also emailed, and only its hash is kept by the server. */
function LinkBox({ shown, onDismiss }: { shown: ShownLink; onDismiss: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => headingRef.current?.focus(), [shown]);
  const expires = formatMoment(shown.link.expires_at);
  const details = { email: shown.email, hours: SET_PASSWORD_LINK_HOURS, expires };

  async function copy() {
    inputRef.current?.select();
    try {
      await navigator.clipboard.writeText(shown.link.setPasswordUrl);
      setCopied(true);
    } catch {
      // Without clipboard access the link stays selected for the person to copy.
    }
  }

  return (
    <section aria-labelledby="link-heading" className="space-y-3 rounded-lg border border-blue-300 bg-blue-50 p-6">
      <h2 id="link-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-blue-950">
        {t('users.linkTitle', { name: shown.name })}
      </h2>
      <p className="text-slate-800">
        {shown.link.emailed ? t('users.linkEmailed', details) : t('users.linkNotEmailed', details)}
      </p>
      <p className="text-slate-800">{t('users.linkOnce')}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField
            ref={inputRef}
            label={t('users.linkLabel')}
            value={shown.link.setPasswordUrl}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
        <Button variant="secondary" onClick={() => void copy()}>
          {t('users.copy')}
        </Button>
      </div>
      <p role="status" className="text-sm text-slate-800">
        {copied ? t('users.copied') : ''}
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        {t('users.done')}
      </Button>
    </section>
  );
}

function NewAccountForm({ courts, onCreated }: { courts: Court[]; onCreated: (shown: ShownLink) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const empty = { username: '', name: '', email: '', role: 'clerk', court_id: '' } as const;
  const form = useSchemaForm(NewAccountSchema, empty);
  const errorOf = useFieldErrors(form);
  const role = useWatch({ control: form.control, name: 'role' });
  const create = useMutation({
    mutationFn: (values: z.output<typeof NewAccountSchema>) =>
      callApi(staffApi.create, { body: { ...values, court_id: courtIdOf(values) } }),
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
          role={role}
          fields={{
            name: form.register('name'),
            email: form.register('email'),
            role: form.register('role'),
            court: form.register('court_id'),
          }}
          errors={{ name: errorOf('name'), email: errorOf('email', t('users.emailInvalid')) }}
          courts={courts}
        />
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

function EditDialog({
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
    court_id: account.court_id === null ? '' : String(account.court_id),
    disabled: account.disabled_at !== null,
  });
  const errorOf = useFieldErrors(form);
  const role = useWatch({ control: form.control, name: 'role' });
  const update = useMutation({
    mutationFn: (values: z.output<typeof EditAccountSchema>) =>
      callApi(staffApi.update, { params: { id: account.id }, body: { ...values, court_id: courtIdOf(values) } }),
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
          role={role}
          fields={{
            name: form.register('name'),
            email: form.register('email'),
            role: form.register('role'),
            court: form.register('court_id'),
          }}
          errors={{ name: errorOf('name'), email: errorOf('email', t('users.emailInvalid')) }}
          courts={courts}
        />
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

/** /admin/users (super_admin): staff accounts, their one-time set-password links, and disabling. */
export function UsersPage() {
  const { t } = useTranslation();
  const accounts = useQuery(adminQueries.staffAccounts());
  const courts = useCourts();
  const courtList = courts.data ?? [];
  const [shown, setShown] = useState<ShownLink | null>(null);
  const [editing, setEditing] = useState<StaffAccount | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const issueLink = useMutation({
    mutationFn: (account: StaffAccount) => callApi(staffApi.issueSetPasswordLink, { params: { id: account.id } }),
  });
  const sendingFor = issueLink.isPending ? (issueLink.variables?.id ?? null) : null;

  async function sendLink(account: StaffAccount) {
    setNotice(null);
    try {
      const link = await issueLink.mutateAsync(account);
      setShown({ name: account.name, email: account.email, link });
    } catch (caught) {
      setNotice({ tone: 'error', text: errorText(caught, t) });
    }
  }

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('admin.pages.users')}</PageHeading>
      {shown && <LinkBox shown={shown} onDismiss={() => setShown(null)} />}
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}

      <section aria-labelledby="accounts-heading" className="rounded-lg bg-white p-6 shadow">
        <h2 id="accounts-heading" className="text-lg font-semibold">
          {t('users.accountsTitle')}
        </h2>
        {accounts.isLoading && <p className="mt-2">{t('common.loading')}</p>}
        {accounts.isError && (
          <div className="mt-2">
            <Alert>{t('users.loadError')}</Alert>
          </div>
        )}
        {accounts.data && (
          <DataTable
            variant="roomy"
            rows={accounts.data}
            rowKey={(account) => account.id}
            columns={[
              {
                header: t('users.name'),
                rowHeader: true,
                className: 'font-semibold text-slate-900',
                cell: (account) => account.name,
              },
              { header: t('users.username'), cell: (account) => account.username },
              { header: t('users.email'), className: 'whitespace-nowrap', cell: (account) => account.email },
              { header: t('users.role'), cell: (account) => t(`users.roles.${account.role}`) },
              { header: t('users.court'), cell: (account) => account.court_name ?? t('users.allCourtsShort') },
              {
                header: t('users.status'),
                cell: (account) => (
                  <span className={`rounded-full px-2.5 py-1 font-semibold ${STATUS_STYLES[statusOf(account)]}`}>
                    {t(`users.statuses.${statusOf(account)}`)}
                  </span>
                ),
              },
              {
                header: t('users.actions'),
                cell: (account) => (
                  <div className="flex flex-wrap gap-x-4 gap-y-1">
                    <button
                      type="button"
                      className="font-semibold text-blue-800 underline"
                      onClick={() => {
                        setNotice(null);
                        setEditing(account);
                      }}
                    >
                      {t('users.edit')}
                      <span className="sr-only"> {account.name}</span>
                    </button>
                    {statusOf(account) !== 'disabled' && (
                      <button
                        type="button"
                        className="font-semibold text-blue-800 underline disabled:text-slate-500"
                        disabled={sendingFor === account.id}
                        onClick={() => void sendLink(account)}
                      >
                        {t('users.sendLink')}
                        <span className="sr-only"> ({account.name})</span>
                      </button>
                    )}
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>

      <NewAccountForm
        courts={courtList}
        onCreated={(created) => {
          setNotice(null);
          setShown(created);
          void accounts.refetch();
        }}
      />

      {editing && (
        <EditDialog
          key={editing.id}
          account={editing}
          courts={courtList}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setNotice({ tone: 'success', text: t('users.saved', { name: editing.name }) });
            setEditing(null);
            void accounts.refetch();
          }}
        />
      )}
    </div>
  );
}
