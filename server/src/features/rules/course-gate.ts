import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import { assertWithinCompletionWindow } from './completion.service.ts';
import { assertNoIdentityHold } from '../identity-checks/identity-checks.service.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { getPinnedProfile, type StudentProfile } from './rules.service.ts';

/**
 * Every course action (Mark Complete, drawing a quiz, submitting it) passes here first: the
 * student's rules profile decides what holds them back (decision 012). Under the default profile
 * nothing does. Returns the profile for the action's own rules (seat time, quiz limits).
 */
export async function assertCourseOpen(
  db: Db,
  context: { clock: Clock; config: Config },
  /** The student and the profile their session row names (no query once the profile is cached). */
  { studentId, profile: pinned }: { studentId: number; profile: ProfileRef },
  /** The action is drawing the final exam (a profile may ask an identity check before it). */
  action: { finalDraw?: boolean } = {},
): Promise<StudentProfile> {
  const profile = await getPinnedProfile(db, pinned);
  await assertWithinCompletionWindow(db, context, studentId, profile);
  await assertNoIdentityHold(db, context.clock, studentId, profile, action);
  return profile;
}
