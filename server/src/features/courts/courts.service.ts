import { asc, eq } from 'drizzle-orm';
import type { Court } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { counties, courts } from '../../db/schema.ts';

export async function listCourts(db: Db, countyId?: number): Promise<Court[]> {
  return db
    .select({ id: courts.id, name: courts.name, county_id: courts.countyId, state: counties.state })
    .from(courts)
    .innerJoin(counties, eq(counties.id, courts.countyId))
    .where(countyId === undefined ? undefined : eq(courts.countyId, countyId))
    .orderBy(asc(courts.name));
}
