import type { FastifyInstance } from 'fastify';
import { getAdminStudent } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { ANY_STAFF, serve } from '../../plugins/endpoint.ts';
import { getStudentDetail } from './admin-students.service.ts';

export function registerAdminRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // Every staff role sees a student's detail, within its court scope (404 outside it).
  serve(app, getAdminStudent, ANY_STAFF, async ({ params, auth }) => getStudentDetail(db, auth, params.id));
}
