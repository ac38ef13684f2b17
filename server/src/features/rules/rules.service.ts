import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type RulesProfile, RulesProfileSchema } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { courts, rulesProfiles, students } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import { createCache } from '../../platform/caches.ts';

/**
 * Rules profiles (decision 012). A profile version never changes once loaded, so each is read
 * from the database once and kept (platform/caches.ts).
 */
const profileCache = createCache<string, RulesProfile>(200);

export const DEFAULT_PROFILE_ID = 'default';

/** One version of a profile, as loaded from content/rules/. */
export async function getRulesProfile(db: Db, id: string, version: number): Promise<RulesProfile> {
  const key = `${id}@${String(version)}`;
  const cached = profileCache.get(db, key);
  if (cached) return cached;
  const [row] = await db
    .select({ definition: rulesProfiles.definition })
    .from(rulesProfiles)
    .where(and(eq(rulesProfiles.id, id), eq(rulesProfiles.version, version)));
  if (!row) throw new Error(`rules profile ${key} is not loaded`);
  const profile = RulesProfileSchema.parse(row.definition);
  profileCache.set(db, key, profile);
  return profile;
}

/** The newest loaded version of a profile: what a new enrolment in a court pointing at it gets. */
export async function getCurrentProfileVersion(db: Db, id: string): Promise<number> {
  const [row] = await db
    .select({ version: rulesProfiles.version })
    .from(rulesProfiles)
    .where(eq(rulesProfiles.id, id))
    .orderBy(desc(rulesProfiles.version))
    .limit(1);
  if (!row) throw new Error(`rules profile ${id} is not loaded`);
  return row.version;
}

/** The profile (id and current version) a new enrolment in this court is pinned to. */
export async function getCourtProfileRef(db: Db, courtId: number): Promise<{ id: string; version: number }> {
  return (
    (await findCourtProfileRef(db, courtId)) ?? {
      id: DEFAULT_PROFILE_ID,
      version: await getCurrentProfileVersion(db, DEFAULT_PROFILE_ID),
    }
  );
}

/**
 * The rules profile a new enrolment in the court of the statement's `courts` row is pinned to, as
 * two columns (id, and its current version: null when that profile is not loaded), for a
 * statement that reads the court anyway (a registration).
 */
export function courtProfileRefColumns(): { rulesProfileId: SQL<string>; rulesProfileVersion: SQL<number | null> } {
  const id = sql<string>`coalesce(${courts.rulesProfileId}, ${DEFAULT_PROFILE_ID})`;
  return {
    rulesProfileId: id,
    rulesProfileVersion: sql<
      number | null
    >`(select max(${rulesProfiles.version}) from ${rulesProfiles} where ${rulesProfiles.id} = ${id})`,
  };
}

/**
 * getCourtProfileRef in one query, undefined when there is no such court: a registration asks
 * whether its court exists and which profile to pin in the same round trip (decision 019).
 */
export async function findCourtProfileRef(
  db: Db,
  courtId: number,
): Promise<{ id: string; version: number } | undefined> {
  // Prepared once (decision 019): every registration asks it.
  const [court] = await prepareOnce(db, 'find_court_profile', (database) =>
    database
      .select(courtProfileRefColumns())
      .from(courts)
      .where(eq(courts.id, sql.placeholder('courtId')))
      .prepare('find_court_profile'),
  ).execute({ courtId });
  if (!court) return undefined;
  if (court.rulesProfileVersion === null) throw new Error(`rules profile ${court.rulesProfileId} is not loaded`);
  return { id: court.rulesProfileId, version: court.rulesProfileVersion };
}

export interface StudentProfile {
  id: string;
  version: number;
  rules: RulesProfile;
}

/** The profile a signed-in student's session row already names (plugins/session.ts reads it): no query once cached. */
export async function getPinnedProfile(db: Db, ref: { id: string; version: number }): Promise<StudentProfile> {
  return { id: ref.id, version: ref.version, rules: await getRulesProfile(db, ref.id, ref.version) };
}

/** The rules a student's enrolment runs under: the profile version pinned when they enrolled. */
export async function getStudentProfile(db: Db, studentId: number): Promise<StudentProfile> {
  const [student] = await db
    .select({ id: students.rulesProfileId, version: students.rulesProfileVersion })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student) throw notFound('No such student.');
  return getPinnedProfile(db, student);
}
