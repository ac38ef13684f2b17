import type { FastifyInstance } from 'fastify';
import { answerIdentityCheck, getIdentityCheck, unlockStudentCourse } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { assertOwnRecord, getVisibleStudent } from '../../plugins/policies.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { unlockCourse } from './course-locks.ts';
import * as identity from './identity-checks.service.ts';

export function registerIdentityCheckRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, getIdentityCheck, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return identity.getIdentityCheckState(db, clock, auth.studentId);
  });

  serve(app, answerIdentityCheck, PAID_STUDENT, async ({ params, body, auth }) => {
    assertOwnRecord(auth, params.id);
    return identity.answerIdentityCheck(db, clock, {
      studentId: auth.studentId,
      checkId: params.checkId,
      answer: body.answer,
    });
  });

  // Admins lift a course lock, within their court scope (404 outside it); audited with the lift.
  serve(app, unlockStudentCourse, staffRoles('super_admin', 'admin', 'court_admin'), async ({ params, auth }) => {
    await getVisibleStudent(db, auth, params.id);
    await db.transaction(async (tx) => {
      const lifted = await unlockCourse(tx, clock, { studentId: params.id, staffId: auth.staffId });
      if (!lifted) return;
      await recordAudit(tx, clock, {
        staffId: auth.staffId,
        action: 'unlock_course',
        entityType: 'student',
        entityId: params.id,
        before: {
          lock_id: lifted.id,
          locked_at: lifted.lockedAt.toISOString(),
          locked_until: lifted.lockedUntil?.toISOString() ?? null,
          unlocked_at: null,
        },
        after: { lock_id: lifted.id, unlocked_at: lifted.unlockedAt?.toISOString() ?? null },
      });
    });
    return { unlocked: true as const };
  });
}
