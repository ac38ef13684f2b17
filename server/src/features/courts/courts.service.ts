import { asc, eq, sql } from 'drizzle-orm';
import type { Court } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { counties, courts } from '../../db/schema.ts';

/** The courts, or one county's, by name: the registration page's list (prepared, a public page's call). */
export async function listCourts(db: Db, countyId?: number): Promise<Court[]> {
  if (countyId === undefined)
    return prepareOnce(db, 'list_courts', (database) => selectCourts(database).prepare('list_courts')).execute();
  return prepareOnce(db, 'list_county_courts', (database) =>
    selectCourts(database)
      .where(eq(courts.countyId, sql.placeholder('countyId')))
      .prepare('list_county_courts'),
  ).execute({ countyId });
}

function selectCourts(db: Db) {
  return db
    .select({ id: courts.id, name: courts.name, county_id: courts.countyId, state: counties.state })
    .from(courts)
    .innerJoin(counties, eq(counties.id, courts.countyId))
    .orderBy(asc(courts.name))
    .$dynamic();
}
