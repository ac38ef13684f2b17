export * from './endpoint.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './courts.ts';
export * from './court.ts';
export * from './corrections.ts';
export * from './registration.ts';
export * from './states.ts';
export * from './health.ts';
export * from './payments.ts';
export * from './content.ts';
export * from './progress.ts';
export * from './quiz.ts';
export * from './certificates.ts';
export * from './admin-students.ts';
export * from './audit.ts';
export * from './dashboard.ts';
export * from './questions.ts';
export * from './staff.ts';
export * from './staff-access.ts';
export * from './rules.ts';
export * from './emails.ts';
export * from './reminders.ts';
export * from './seat-time.ts';
export * from './state-filings.ts';
export * from './identity.ts';
export * from './primitives.ts';

import type { Endpoint } from './endpoint.ts';
import { adminStudentsApi } from './admin-students.ts';
import { auditApi } from './audit.ts';
import { authApi } from './auth.ts';
import { certificatesApi } from './certificates.ts';
import { contentApi } from './content.ts';
import { courtsApi } from './courts.ts';
import { courtApi } from './court.ts';
import { correctionsApi } from './corrections.ts';
import { dashboardApi } from './dashboard.ts';
import { emailsApi } from './emails.ts';
import { healthApi } from './health.ts';
import { identityChecksApi } from './identity.ts';
import { paymentsApi } from './payments.ts';
import { progressApi } from './progress.ts';
import { questionsApi } from './questions.ts';
import { quizApi } from './quiz.ts';
import { registrationApi } from './registration.ts';
import { rulesApi } from './rules.ts';
import { remindersApi } from './reminders.ts';
import { seatTimeApi } from './seat-time.ts';
import { staffApi } from './staff.ts';
import { stateFilingsApi } from './state-filings.ts';

/** Every call of the API, one group per server feature (the route tests and the fuzz test walk it). */
export const API_GROUPS = {
  adminStudentsApi,
  auditApi,
  authApi,
  certificatesApi,
  contentApi,
  courtsApi,
  courtApi,
  correctionsApi,
  dashboardApi,
  emailsApi,
  healthApi,
  identityChecksApi,
  paymentsApi,
  progressApi,
  questionsApi,
  quizApi,
  registrationApi,
  rulesApi,
  remindersApi,
  seatTimeApi,
  staffApi,
  stateFilingsApi,
} as const;

export const ALL_ENDPOINTS: readonly Endpoint[] = Object.values(API_GROUPS).flatMap((group) =>
  Object.values<Endpoint>(group),
);
