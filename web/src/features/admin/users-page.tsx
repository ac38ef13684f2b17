import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type StaffAccount, staffApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useCourts } from '../../lib/queries.ts';
import { adminQueries } from './admin-queries.ts';
import { EditStaffAccountDialog } from './edit-staff-account-dialog.tsx';
import { NewAccountForm } from './new-staff-account-form.tsx';
import { LinkBox, type ShownLink } from './staff-link-box.tsx';

function statusOf(account: StaffAccount): 'disabled' | 'waiting' | 'active' {
  if (account.disabled_at !== null) return 'disabled';
  return account.password_set ? 'active' : 'waiting';
}

const STATUS_STYLES = {
  active: 'bg-green-100 text-green-900',
  waiting: 'bg-amber-100 text-amber-900',
  disabled: 'bg-slate-200 text-slate-800',
} as const;

/** Every staff account, with its status, and Edit and Send link for each. */
function StaffAccountsTable({
  accounts,
  sendingFor,
  onEdit,
  onSendLink,
}: {
  accounts: StaffAccount[];
  sendingFor: number | null;
  onEdit: (account: StaffAccount) => void;
  onSendLink: (account: StaffAccount) => void;
}) {
  const { t } = useTranslation();
  return (
    <DataTable
      variant="roomy"
      rows={accounts}
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
              <button type="button" className="font-semibold text-blue-800 underline" onClick={() => onEdit(account)}>
                {t('users.edit')}
                <span className="sr-only"> {account.name}</span>
              </button>
              {statusOf(account) !== 'disabled' && (
                <button
                  type="button"
                  className="font-semibold text-blue-800 underline disabled:text-slate-500"
                  disabled={sendingFor === account.id}
                  onClick={() => onSendLink(account)}
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
          <StaffAccountsTable
            accounts={accounts.data}
            sendingFor={sendingFor}
            onEdit={(account) => {
              setNotice(null);
              setEditing(account);
            }}
            onSendLink={(account) => void sendLink(account)}
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
        <EditStaffAccountDialog
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
