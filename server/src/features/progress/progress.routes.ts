import type { FastifyInstance } from 'fastify';
import { completeChapter, completeModule, getCompletedChapters, getQuizStatus } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { listCompletedChapterIds } from './chapter-order.ts';
import * as progress from './progress.service.ts';

export function registerProgressRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(app, getCompletedChapters, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return listCompletedChapterIds(db, auth.studentId);
  });

  serve(app, getQuizStatus, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return progress.getQuizStatus(db, { studentId: auth.studentId, chapterId: params.chapterId });
  });

  serve(app, completeModule, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    await progress.completeModule(db, { clock, config }, { studentId: auth.studentId, moduleId: body.moduleId });
    return { saved: true as const };
  });

  serve(app, completeChapter, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    await progress.completeChapter(db, { clock, config }, { studentId: auth.studentId, chapterId: body.chapterId });
    return { saved: true as const };
  });
}
