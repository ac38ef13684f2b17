import type { FastifyInstance } from 'fastify';
import { questionsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { editAnswer, editQuestion, getAdminQuestion, saveQuestion } from './questions.service.ts';

export function registerQuestionRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, questionsApi.get, staffRoles(...questionsApi.get.staffRoles), async ({ params }) =>
    getAdminQuestion(db, params.id),
  );

  serve(
    app,
    questionsApi.editQuestion,
    staffRoles(...questionsApi.editQuestion.staffRoles),
    async ({ params, body, auth }) =>
      editQuestion(db, clock, {
        staffId: auth.staffId,
        questionId: params.id,
        content: body.content,
        contentEs: body.content_es,
      }),
  );

  serve(
    app,
    questionsApi.editAnswer,
    staffRoles(...questionsApi.editAnswer.staffRoles),
    async ({ params, body, auth }) =>
      editAnswer(db, clock, {
        staffId: auth.staffId,
        answerId: params.id,
        content: body.content,
        contentEs: body.content_es,
        correct: body.correct,
      }),
  );

  serve(app, questionsApi.save, staffRoles(...questionsApi.save.staffRoles), async ({ params, body, auth }) =>
    saveQuestion(db, clock, {
      staffId: auth.staffId,
      questionId: params.id,
      content: body.content,
      contentEs: body.content_es,
      answers: body.answers.map((answer) => ({ id: answer.id, content: answer.content, contentEs: answer.content_es })),
      correctAnswerId: body.correct_answer_id,
    }),
  );
}
