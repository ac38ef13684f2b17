import type { SeatTimeStatus } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { hasIdentityHold } from '../identity-checks/identity-checks.service.ts';
import { getStudentProfile, type StudentProfile } from '../rules/rules.service.ts';
import { getSeatTimeStatus, recordHeartbeat, type SeatTimeContext } from './seat-time.service.ts';

// What the module page is told (decision 012): its seat time, and whether an identity check holds
// the course, so the page asks for it at once. Composed here, apart from seat-time.service.ts,
// because the identity checks depend on seat time: asking them there would be an import cycle.

/** The page's heartbeat: counts the time, then says where the student stands. */
export async function recordStudentHeartbeat(
  db: Db,
  context: SeatTimeContext,
  input: { studentId: number; moduleId: number },
): Promise<SeatTimeStatus> {
  // One read of the student's pinned profile serves the seat time and the identity question.
  const profile = await getStudentProfile(db, input.studentId);
  const status = await recordHeartbeat(db, context, { ...input, profile });
  return withIdentityHold(db, context, input.studentId, profile, status);
}

/** The student's seat time for a module, a chapter or the course, without counting any. */
export async function getStudentSeatTime(
  db: Db,
  context: SeatTimeContext,
  input: { studentId: number; moduleId?: number | undefined; chapterId?: number | undefined },
): Promise<SeatTimeStatus> {
  const profile = await getStudentProfile(db, input.studentId);
  const status = await getSeatTimeStatus(db, context, { ...input, profile });
  return withIdentityHold(db, context, input.studentId, profile, status);
}

async function withIdentityHold(
  db: Db,
  context: SeatTimeContext,
  studentId: number,
  profile: StudentProfile,
  status: SeatTimeStatus,
): Promise<SeatTimeStatus> {
  return { ...status, identityCheckDue: await hasIdentityHold(db, context.clock, studentId, profile) };
}
