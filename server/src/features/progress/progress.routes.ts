import type { FastifyInstance } from 'fastify';
import { progressApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { getStudentProgress } from './progress.queries.ts';
import { completeChapter, completeModule, getQuizStatus } from './progress.service.ts';

export function registerProgressRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(app, progressApi.completedChapters, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return [...(await getStudentProgress(db, auth)).chapterIds];
  });

  serve(app, progressApi.quizStatus, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return getQuizStatus(db, { studentId: auth.studentId, chapterId: params.chapterId });
  });

  serve(app, progressApi.completeModule, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    await completeModule(
      db,
      { clock, config },
      { studentId: auth.studentId, profile: auth.profile, moduleId: body.moduleId },
    );
    return { saved: true as const };
  });

  serve(app, progressApi.completeChapter, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    await completeChapter(db, { clock, config }, { studentId: auth.studentId, chapterId: body.chapterId });
    return { saved: true as const };
  });
}
