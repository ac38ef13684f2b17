import type { FastifyInstance } from 'fastify';
import { quizApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { gradeQuizAttempt, listAnswersForStudent, startFinalExamAttempt, startQuizAttempt } from './quiz.service.ts';

export function registerQuizRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  const context = { clock, config };

  serve(
    app,
    quizApi.questions,
    PAID_STUDENT,
    async ({ params, auth, request }) =>
      startQuizAttempt(db, context, {
        studentId: auth.studentId,
        progressVersion: auth.progressVersion,
        profile: auth.profile,
        chapterId: params.chapterId,
        language: requestLanguage(request),
      }),
    // A reload shows the same quiz object again (presentAttempt), so its text is kept with it.
    { memoisedAnswer: true },
  );

  serve(
    app,
    quizApi.finalExam,
    PAID_STUDENT,
    async ({ params, auth, request }) => {
      assertOwnRecord(auth, params.studentId);
      return startFinalExamAttempt(db, context, {
        studentId: auth.studentId,
        progressVersion: auth.progressVersion,
        profile: auth.profile,
        language: requestLanguage(request),
      });
    },
    { memoisedAnswer: true },
  );

  serve(app, quizApi.answers, PAID_STUDENT, async ({ params, auth, request }) =>
    listAnswersForStudent(db, {
      studentId: auth.studentId,
      questionId: params.questionId,
      language: requestLanguage(request),
    }),
  );

  serve(app, quizApi.score, PAID_STUDENT, async ({ body, auth, request }) => {
    assertOwnRecord(auth, body.studentId);
    return gradeQuizAttempt(db, context, {
      studentId: auth.studentId,
      progressVersion: auth.progressVersion,
      profile: auth.profile,
      chapterId: body.chapter,
      attemptId: body.attemptId,
      submitted: body.questions,
      language: requestLanguage(request),
    });
  });
}
