import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { healthApi } from '@ts/contract';
import { callApi, reconnecting, retryDelayAfter } from '../lib/api.ts';
import { useTranslation } from '../lib/i18n.ts';

/**
 * While the server cannot reach its database (503 SERVICE_UNAVAILABLE, decision 061), a polite
 * banner says the student's work is saved and the school is reconnecting. Meanwhile the reads are
 * asked again by react-query (lib/queries.ts) and the idempotent writes by callApi; the banner also
 * asks the health check now and then, so it goes even on a page that has nothing more to ask. When
 * an answer comes again it goes, and the reads that gave up meanwhile are asked again: the page
 * recovers without a reload.
 *
 * The live region is always in the page, so screen readers announce the words when they appear;
 * it is a plain polite region, not a `status` role, which the pages keep for their own messages.
 */
export function ReconnectingBanner() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isReconnecting = useSyncExternalStore(reconnecting.subscribe, reconnecting.get, reconnecting.get);

  useEffect(() => {
    if (!isReconnecting) return;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout>;
    const askAgain = (delay: number) => {
      timer = setTimeout(() => {
        callApi(healthApi.health).catch((error: unknown) => {
          failures += 1;
          askAgain(retryDelayAfter(failures, error));
        });
      }, delay);
    };
    askAgain(retryDelayAfter(1, undefined));
    return () => {
      clearTimeout(timer);
      // Back (or leaving the page): what failed while the school was away is asked again.
      void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
    };
  }, [isReconnecting, queryClient]);

  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      {isReconnecting && (
        <p className="pointer-events-auto max-w-xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 shadow-lg">
          {t('reconnecting.banner')}
        </p>
      )}
    </div>
  );
}
