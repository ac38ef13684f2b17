import type { StudentRules } from '@ts/contract';

/** The spec's course as GET /api/students/:id/rules answers it (the default profile), with `overrides`. */
export function studentRulesWith(overrides: Partial<StudentRules> = {}): StudentRules {
  const quiz = { questions: 10, passMark: 7, attempts: null, waitMinutes: 0 };
  return {
    profile: { id: 'default', version: 1, name: 'Standard course' },
    seatTime: {
      minutesPerModule: 0,
      minutesPerChapter: 0,
      minutesBeforeFinal: 0,
      idleCutoffMinutes: 15,
      dailyCapMinutes: null,
    },
    identityChecks: { enabled: false, answerSeconds: 90 },
    quizzes: { chapter: quiz, final: { ...quiz, questions: 20, passMark: 14 } },
    windowDays: null,
    certificateRouting: 'student_and_court',
    courtHasEmail: true,
    deadline: null,
    deadlineWarning: false,
    closedOn: null,
    extraAttempts: [],
    ...overrides,
  };
}

/** The strict illustration profile (content/rules/four-hour-identity.json) as the rules call answers it. */
export function strictRulesWith(overrides: Partial<StudentRules> = {}): StudentRules {
  return studentRulesWith({
    profile: { id: 'four-hour-identity', version: 1, name: '4-hour course with identity checks' },
    seatTime: {
      minutesPerModule: 12,
      minutesPerChapter: 50,
      minutesBeforeFinal: 240,
      idleCutoffMinutes: 15,
      dailyCapMinutes: null,
    },
    identityChecks: { enabled: true, answerSeconds: 90 },
    quizzes: {
      chapter: { questions: 10, passMark: 7, attempts: null, waitMinutes: 0 },
      final: { questions: 20, passMark: 15, attempts: 2, waitMinutes: 1440 },
    },
    windowDays: 60,
    ...overrides,
  });
}
