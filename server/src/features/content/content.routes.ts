import type { FastifyInstance } from 'fastify';
import {
  getModule,
  getVideo,
  listChapters as listChaptersEndpoint,
  listModules,
  listQuestions as listQuestionsEndpoint,
  listTopics as listTopicsEndpoint,
} from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import {
  findVideo,
  getModuleForStudent,
  listChapters,
  listModulesForStudent,
  listQuestions,
  listTopics,
} from './content.service.ts';

// Every course call needs a signed-in student who has paid (issue 3: 402 otherwise).
export function registerContentRoutes(app: FastifyInstance, { db }: AppDeps): void {
  serve(app, listChaptersEndpoint, PAID_STUDENT, async ({ request }) => listChapters(db, requestLanguage(request)));

  serve(app, listModules, PAID_STUDENT, async ({ params, query, auth, request }) => {
    assertOwnRecord(auth, query.userId);
    return listModulesForStudent(db, {
      chapterId: params.chapterId,
      studentId: auth.studentId,
      language: requestLanguage(request),
    });
  });

  serve(app, getModule, PAID_STUDENT, async ({ params, auth, request }) =>
    getModuleForStudent(db, {
      moduleId: params.moduleId,
      studentId: auth.studentId,
      language: requestLanguage(request),
    }),
  );

  serve(app, listTopicsEndpoint, PAID_STUDENT, async ({ params, request }) =>
    listTopics(db, params.moduleId, requestLanguage(request)),
  );

  serve(app, getVideo, PAID_STUDENT, async ({ params, request }) =>
    findVideo(db, params.moduleId, requestLanguage(request)),
  );

  // The question list is for the staff who edit the banks, never for students.
  serve(app, listQuestionsEndpoint, staffRoles('super_admin', 'admin'), async () => listQuestions(db));
}
