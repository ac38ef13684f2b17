import type { FastifyInstance } from 'fastify';
import { contentApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { getPinnedProfile } from '../rules/rules.service.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import {
  assertModuleServed,
  findVideo,
  getModuleForStudent,
  listChapters,
  listModulesForStudent,
  listQuestions,
  listTopics,
} from './content.service.ts';

// Every course call needs a signed-in student who has paid (SPEC 6: 402 otherwise).
export function registerContentRoutes(app: FastifyInstance, { db }: AppDeps): void {
  /** The student's state edition: their pinned rules profile's (decision 051). */
  const editionOf = async (auth: { profile: ProfileRef }) => (await getPinnedProfile(db, auth.profile)).rules.edition;

  // The students' reads below hand back kept answers (content.service.ts), sent as kept text.
  const kept = { memoisedAnswer: true };
  serve(
    app,
    contentApi.chapters,
    PAID_STUDENT,
    async ({ request }) => listChapters(db, requestLanguage(request)),
    kept,
  );

  serve(
    app,
    contentApi.modules,
    PAID_STUDENT,
    async ({ params, query, auth, request }) => {
      assertOwnRecord(auth, query.userId);
      return listModulesForStudent(db, {
        chapterId: params.chapterId,
        student: { ...auth, edition: await editionOf(auth) },
        language: requestLanguage(request),
      });
    },
    kept,
  );

  serve(app, contentApi.module, PAID_STUDENT, async ({ params, auth, request }) =>
    getModuleForStudent(db, {
      moduleId: params.moduleId,
      student: { ...auth, edition: await editionOf(auth) },
      language: requestLanguage(request),
    }),
  );

  serve(
    app,
    contentApi.topics,
    PAID_STUDENT,
    async ({ params, auth, request }) => {
      await assertModuleServed(db, params.moduleId, await editionOf(auth));
      return listTopics(db, params.moduleId, requestLanguage(request));
    },
    kept,
  );

  serve(app, contentApi.video, PAID_STUDENT, async ({ params, auth, request }) => {
    await assertModuleServed(db, params.moduleId, await editionOf(auth));
    return findVideo(db, params.moduleId, requestLanguage(request));
  });

  // The question list is for the staff who edit the banks, never for students.
  serve(app, contentApi.questions, staffRoles(...contentApi.questions.staffRoles), async () => listQuestions(db));
}
