import type { FastifyInstance } from 'fastify';
import {
  FINAL_EXAM_CHAPTER,
  getFinalExamQuestions,
  getQuestionAnswers,
  getQuizQuestions,
  scoreQuiz,
} from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { assertCourseOpen } from '../rules/course-gate.ts';
import { gradeQuizAttempt, listAnswersForStudent, startQuizAttempt } from './quiz.service.ts';

export function registerQuizRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(app, getQuizQuestions, PAID_STUDENT, async ({ params, auth, request }) => {
    await assertCourseOpen(db, { clock, config }, auth.studentId);
    return startQuizAttempt(db, clock, {
      studentId: auth.studentId,
      chapterId: params.chapterId,
      language: requestLanguage(request),
    });
  });

  serve(app, getFinalExamQuestions, PAID_STUDENT, async ({ params, auth, request }) => {
    assertOwnRecord(auth, params.studentId);
    await assertCourseOpen(db, { clock, config }, auth.studentId, { finalDraw: true });
    return startQuizAttempt(db, clock, {
      studentId: auth.studentId,
      chapterId: FINAL_EXAM_CHAPTER,
      language: requestLanguage(request),
    });
  });

  serve(app, getQuestionAnswers, PAID_STUDENT, async ({ params, auth, request }) =>
    listAnswersForStudent(db, {
      studentId: auth.studentId,
      questionId: params.questionId,
      language: requestLanguage(request),
    }),
  );

  serve(app, scoreQuiz, PAID_STUDENT, async ({ body, auth, request }) => {
    assertOwnRecord(auth, body.studentId);
    await assertCourseOpen(db, { clock, config }, auth.studentId);
    return gradeQuizAttempt(
      db,
      { clock, config },
      {
        studentId: auth.studentId,
        chapterId: body.chapter,
        attemptId: body.attemptId,
        submitted: body.questions,
        language: requestLanguage(request),
      },
    );
  });
}
