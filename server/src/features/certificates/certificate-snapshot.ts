import { readEditions } from '../../db/content-files.ts';
import type { StudentProfile } from '../rules/rules.service.ts';

export const COURSE_NAME = 'Court-Assigned Defensive Driving Course (four chapters and a final exam)';
/** How a certificate under the default profile (version 1, the spec's course) names its rules. */
export const DEFAULT_RULES_PROFILE = 'Standard course (version 1)';

/**
 * The course rules line of the snapshot, as a court reads it (decision 024): the profile's public
 * name and version, never an internal id. A certificate already issued keeps the words it has.
 */
export function describeRulesProfile(profile: StudentProfile): string {
  return `${profile.rules.name.en} (version ${String(profile.version)})`;
}

let editionNames: ReadonlyMap<string, string> | undefined;

/**
 * The course's name on a certificate: a state edition's public name for its students (decision
 * 051, "Texas Driving Safety Course"), the shared course's otherwise. Read once from content/.
 */
export function courseNameFor(profile: StudentProfile): string {
  editionNames ??= new Map(readEditions().map((edition) => [edition.id, edition.name.en]));
  const { edition } = profile.rules;
  return (edition === null ? undefined : editionNames.get(edition)) ?? COURSE_NAME;
}
