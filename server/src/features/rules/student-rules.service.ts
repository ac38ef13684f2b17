import type { StudentRules } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Language } from '../../plugins/language.ts';
import { getCompletionStatus } from './completion.service.ts';
import { getStudentProfile } from './rules.service.ts';

/**
 * The rules a student's enrolment runs under, as the pages need them (decision 012): the pinned
 * profile's name and version, its limits, and today's deadline and warning.
 */
export async function getStudentRules(
  db: Db,
  context: { clock: Clock; config: Config },
  input: { studentId: number; language: Language },
): Promise<StudentRules> {
  const profile = await getStudentProfile(db, input.studentId);
  const { rules } = profile;
  const completion = await getCompletionStatus(db, context, input.studentId, profile);
  const limits = (quiz: typeof rules.quizzes.chapter) => ({
    questions: quiz.questions,
    passMark: quiz.passMark,
    attempts: quiz.attempts,
    waitMinutes: quiz.waitMinutes,
  });
  return {
    profile: { id: profile.id, version: profile.version, name: rules.name[input.language] },
    seatTime: rules.seatTime,
    identityChecks: { enabled: rules.identityChecks.enabled, answerSeconds: rules.identityChecks.answerSeconds },
    quizzes: { chapter: limits(rules.quizzes.chapter), final: limits(rules.quizzes.final) },
    deadline: completion.deadline,
    deadlineWarning: completion.deadlineWarning,
    closedOn: completion.closed ? completion.windowEnds : null,
    certificateRouting: rules.certificate.routing,
  };
}
