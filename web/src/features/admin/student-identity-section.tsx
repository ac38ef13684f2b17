import { useTranslation } from '../../lib/i18n.ts';
import type { AdminIdentity } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { formatMoment } from '../../lib/dates.ts';

/**
 * Decision 012: the identity checks a student was asked (oldest first) and the course lock, with
 * "Unlock course" for admins while locked. Nothing shows for a student never asked one (every
 * student under a profile without identity checks).
 */
export function StudentIdentitySection({
  identity,
  canUnlock,
  busy,
  onUnlock,
}: {
  identity: AdminIdentity | undefined;
  canUnlock: boolean;
  busy: boolean;
  onUnlock: () => void;
}) {
  const { t } = useTranslation();
  if (!identity || (identity.checks.length === 0 && !identity.lock)) return null;
  const { lock } = identity;
  return (
    <section aria-labelledby="identity-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="identity-heading" className="text-lg font-semibold">
        {t('identity.admin.heading')}
      </h2>
      {lock && (
        <div className="mt-2 flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
          <p>
            {lock.until
              ? t('identity.admin.lockedUntil', { time: formatMoment(lock.until) })
              : t('identity.admin.lockedAdmin')}
          </p>
          {canUnlock && (
            <Button disabled={busy} onClick={onUnlock}>
              {t('identity.admin.unlock')}
            </Button>
          )}
        </div>
      )}
      {identity.checks.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('identity.admin.none')}</p>
      ) : (
        <DataTable
          rows={identity.checks}
          rowKey={(check, index) => `${check.asked_at}-${String(index)}`}
          columns={[
            {
              header: t('identity.admin.asked'),
              className: 'whitespace-nowrap',
              cell: (check) => formatMoment(check.asked_at),
            },
            { header: t('identity.admin.question'), cell: (check) => t(`identity.admin.source.${check.source}`) },
            { header: t('identity.admin.reason'), cell: (check) => t(`identity.admin.reasons.${check.reason}`) },
            {
              header: t('identity.admin.outcome'),
              cell: (check) => t(`identity.admin.outcomes.${check.outcome ?? 'open'}`),
            },
          ]}
        />
      )}
    </section>
  );
}
