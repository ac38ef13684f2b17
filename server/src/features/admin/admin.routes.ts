import type { FastifyInstance } from 'fastify';
import { adminStudentsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { courtLimitedStaff, withStaffProbeThrottle } from '../auth/throttle.ts';
import { getStudentDetail, listAdminStudents, updateStudentContact } from './admin-students.service.ts';

export function registerAdminRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  // Every staff role searches the students; a court-limited admin or clerk only within their court.
  serve(app, adminStudentsApi.list, staffRoles(...adminStudentsApi.list.staffRoles), async ({ query, auth }) =>
    listAdminStudents(db, auth, query, config.schoolTimeZone),
  );

  // Every staff role sees a student's detail, within its court scope (404 outside it).
  serve(app, adminStudentsApi.get, staffRoles(...adminStudentsApi.get.staffRoles), async ({ params, auth, request }) =>
    getStudentDetail(
      db,
      { auth, clock, schoolTimeZone: config.schoolTimeZone, language: requestLanguage(request) },
      params.id,
    ),
  );

  // Admins (a court's own admin for that court's students), never clerks.
  serve(
    app,
    adminStudentsApi.updateContact,
    staffRoles(...adminStudentsApi.updateContact.staffRoles),
    async ({ params, body, auth, request }) => {
      await withStaffProbeThrottle(db, clock, courtLimitedStaff(auth, request.ip), () =>
        updateStudentContact(db, clock, { auth, staffId: auth.staffId, studentId: params.id, contact: body }),
      );
      return getStudentDetail(db, { auth, clock, schoolTimeZone: config.schoolTimeZone }, params.id);
    },
  );
}
