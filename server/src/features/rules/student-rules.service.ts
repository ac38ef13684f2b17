import { eq } from 'drizzle-orm';
import type { RulesSummary, StudentRules } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { courts, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Language } from '../../plugins/language.ts';
import { notFound } from '../../plugins/errors.ts';
import { getCompletionStatus } from './completion.service.ts';
import { listExtraAttempts } from './exceptions.queries.ts';
import { getCourtProfileRef, getPinnedProfile, type StudentProfile } from './rules.service.ts';

/** A profile's rules as the pages tell a driver (one place for both the student's and a court's). */
function summarizeRules(profile: StudentProfile, language: Language, courtHasEmail: boolean): RulesSummary {
  const { rules } = profile;
  const limits = (quiz: typeof rules.quizzes.chapter) => ({
    questions: quiz.questions,
    passMark: quiz.passMark,
    attempts: quiz.attempts,
    waitMinutes: quiz.waitMinutes,
  });
  return {
    profile: { id: profile.id, version: profile.version, name: rules.name[language] },
    seatTime: rules.seatTime,
    identityChecks: { enabled: rules.identityChecks.enabled, answerSeconds: rules.identityChecks.answerSeconds },
    quizzes: { chapter: limits(rules.quizzes.chapter), final: limits(rules.quizzes.final) },
    windowDays: rules.completion.windowDays,
    certificateRouting: rules.certificate.routing,
    courtHasEmail,
  };
}

/**
 * The rules a student's enrolment runs under, as the pages need them (decision 012): the pinned
 * profile's name and version, its limits, and today's deadline and warning.
 */
export async function getStudentRules(
  db: Db,
  context: { clock: Clock; config: Config },
  input: { studentId: number; language: Language },
): Promise<StudentRules> {
  // The pinned profile and the court's address in one read.
  const [student] = await db
    .select({ id: students.rulesProfileId, version: students.rulesProfileVersion, courtEmail: courts.email })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(students.id, input.studentId));
  if (!student) throw notFound('No such student.');
  const profile = await getPinnedProfile(db, student);
  const completion = await getCompletionStatus(db, context, input.studentId, profile);
  return {
    extraAttempts: await listExtraAttempts(db, input.studentId),
    ...summarizeRules(profile, input.language, Boolean(student.courtEmail)),
    deadline: completion.deadline,
    deadlineWarning: completion.deadlineWarning,
    closedOn: completion.closed ? completion.windowEnds : null,
  };
}

/** The rules a driver registering with this court would take the course under (404 for no such court). */
export async function getCourtRules(db: Db, input: { courtId: number; language: Language }): Promise<RulesSummary> {
  const [court] = await db.select({ email: courts.email }).from(courts).where(eq(courts.id, input.courtId));
  if (!court) throw notFound('No such court.');
  const profile = await getPinnedProfile(db, await getCourtProfileRef(db, input.courtId));
  return summarizeRules(profile, input.language, Boolean(court.email));
}
