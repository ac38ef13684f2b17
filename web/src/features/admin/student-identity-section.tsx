import { useTranslation } from 'react-i18next';
import type { AdminIdentity } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { formatMoment } from '../rules/rules-messages.tsx';

/**
 * Issue 8: the identity checks a student was asked (oldest first) and the course lock, with
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
        <div className="mt-2 overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
            <thead className="text-slate-800">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t('identity.admin.asked')}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t('identity.admin.question')}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t('identity.admin.reason')}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t('identity.admin.outcome')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 text-slate-900">
              {identity.checks.map((check, index) => (
                <tr key={`${check.asked_at}-${String(index)}`}>
                  <td className="py-2 pr-4 whitespace-nowrap">{formatMoment(check.asked_at)}</td>
                  <td className="py-2 pr-4">{t(`identity.admin.source.${check.source}`)}</td>
                  <td className="py-2 pr-4">{t(`identity.admin.reasons.${check.reason}`)}</td>
                  <td className="py-2 pr-4">{t(`identity.admin.outcomes.${check.outcome ?? 'open'}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
