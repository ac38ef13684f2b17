import { and, count, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificateDeliveries, certificates } from '../../db/schema.ts';

/** What other features read of certificates (decision 017: the certificates feature owns these tables). */

/** Certificates issued in [since, until] (both ends included). */
export async function countCertificatesIssuedBetween(db: Db, input: { since: Date; until: Date }): Promise<number> {
  const [row] = await db
    .select({ issued: count() })
    .from(certificates)
    .where(and(gte(certificates.issuedAt, input.since), lte(certificates.issuedAt, input.until)));
  return row?.issued ?? 0;
}

/** Certificate emails that gave up (the dead letter), now. */
export async function countFailedDeliveries(db: Db): Promise<number> {
  const [row] = await db
    .select({ failed: count() })
    .from(certificateDeliveries)
    .where(eq(certificateDeliveries.status, 'failed'));
  return row?.failed ?? 0;
}
