import { count, min } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificateDeliveries } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { DeliveryBacklog } from '../../platform/metrics.ts';

/**
 * The certificate emails by status and the age of the oldest still queued, for /metrics (decision
 * 060): a queue that stops draining (SMTP down, the worker stuck) shows as that age growing, which
 * the README's alert watches. One statement per scrape.
 */
export async function readDeliveryBacklog(db: Db, clock: Clock): Promise<DeliveryBacklog> {
  const rows = await db
    .select({
      status: certificateDeliveries.status,
      deliveries: count(),
      oldestQueuedAt: min(certificateDeliveries.queuedAt),
    })
    .from(certificateDeliveries)
    .groupBy(certificateDeliveries.status);
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = row.deliveries;
  const oldest = rows.find((row) => row.status === 'queued')?.oldestQueuedAt;
  const oldestQueuedAgeSeconds = oldest ? Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000) : 0;
  return { byStatus, oldestQueuedAgeSeconds };
}
