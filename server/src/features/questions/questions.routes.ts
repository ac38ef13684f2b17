import type { FastifyInstance } from 'fastify';
import { editAnswer, editQuestion, getAdminQuestion } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import * as questionService from './questions.service.ts';

// Decision 011: the question banks are edited by full admins; clerks and court-limited admins
// do not change the course.
export function registerQuestionRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  const editors = staffRoles('super_admin', 'admin');

  serve(app, getAdminQuestion, editors, async ({ params }) => questionService.getAdminQuestion(db, params.id));

  serve(app, editQuestion, editors, async ({ params, body, auth }) =>
    questionService.editQuestion(db, clock, {
      staffId: auth.staffId,
      questionId: params.id,
      content: body.content,
      contentEs: body.content_es,
    }),
  );

  serve(app, editAnswer, editors, async ({ params, body, auth }) =>
    questionService.editAnswer(db, clock, {
      staffId: auth.staffId,
      answerId: params.id,
      content: body.content,
      contentEs: body.content_es,
      correct: body.correct,
    }),
  );
}
