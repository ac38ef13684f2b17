import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_DIR } from '../../server/src/db/content-files.ts';
import { startServer } from '../../server/src/server.ts';
import {
  E2E_CALIFORNIA_COURT,
  E2E_MINUTES_PER_MODULE,
  E2E_ONE_TRY_COURT,
  E2E_STATE_REPORT_COURT,
  E2E_STRICT_COURT,
  E2E_TIMED_COURT,
} from './timed-court.ts';

/**
 * The end-to-end server: `npm start`'s server on a copy of the reviewed content with courts added
 * for what a browser must see in real time (support/timed-court.ts): one whose rules profile asks
 * for minutes, not hours, of seat time and an identity check within the first minute and a half
 * (decision 013), one under the strict Florida-style profile, one with a single try per quiz, one
 * whose certificates are held for the state's report, and one in California's edition. The first
 * listed court keeps the spec's own course. The reviewed files themselves stay as they are.
 */

const contentDir = path.resolve('.tmp/e2e-content');
fs.rmSync(contentDir, { recursive: true, force: true });
fs.cpSync(CONTENT_DIR, contentDir, { recursive: true });

const defaultProfile = JSON.parse(fs.readFileSync(path.join(contentDir, 'rules/default.json'), 'utf8')) as Record<
  string,
  unknown
>;
const timedProfile = {
  ...defaultProfile,
  $comment: 'For the end-to-end tests only: two minutes per module, an identity check about every minute.',
  id: 'e2e-timed',
  name: { en: 'End-to-end timed course', es: 'Curso cronometrado de prueba' },
  description: {
    en: 'Two minutes per module, identity checks.',
    es: 'Dos minutos por módulo, verificación de identidad.',
  },
  seatTime: {
    minutesPerModule: E2E_MINUTES_PER_MODULE,
    minutesPerChapter: 0,
    minutesBeforeFinal: 0,
    idleCutoffMinutes: 15,
    dailyCapMinutes: null,
  },
  identityChecks: {
    enabled: true,
    everyMinutes: 1,
    answerSeconds: 90,
    beforeFinal: false,
    sources: ['dob', 'zip', 'street_number'],
    retries: 1,
    missesBeforeLock: 2,
    lockHours: 24,
    locksBeforeAdminUnlock: 2,
  },
};
fs.writeFileSync(path.join(contentDir, 'rules/e2e-timed.json'), JSON.stringify(timedProfile, null, 2));

// One attempt per chapter quiz, nothing else changed: for staff exceptions (one more attempt, decision 040).
const defaultQuizzes = defaultProfile.quizzes as { chapter: Record<string, unknown>; final: Record<string, unknown> };
const oneTryProfile = {
  ...defaultProfile,
  $comment: 'For the end-to-end tests only: one attempt at each chapter quiz.',
  id: 'e2e-one-try',
  name: { en: 'End-to-end one-try course', es: 'Curso de prueba de un intento' },
  description: { en: 'One attempt per chapter quiz.', es: 'Un intento por cuestionario.' },
  quizzes: { ...defaultQuizzes, chapter: { ...defaultQuizzes.chapter, attempts: 1 } },
};
fs.writeFileSync(path.join(contentDir, 'rules/e2e-one-try.json'), JSON.stringify(oneTryProfile, null, 2));

// The certificate held for the state's report, the court emailed once it is filed.
const stateReportProfile = {
  ...defaultProfile,
  $comment: 'For the end-to-end tests only: the spec course, its certificate filed with the state.',
  id: 'e2e-state-report',
  name: { en: 'End-to-end state-report course', es: 'Curso de prueba con informe al estado' },
  description: { en: 'Reported to the state.', es: 'Se informa al estado.' },
  certificate: { routing: 'held_for_state_report', retentionYears: 3, courtCopyAfterFiling: true },
};
fs.writeFileSync(path.join(contentDir, 'rules/e2e-state-report.json'), JSON.stringify(stateReportProfile, null, 2));

const courtsFile = path.join(contentDir, 'courts.json');
const courts = JSON.parse(fs.readFileSync(courtsFile, 'utf8')) as {
  counties: { state: string; name: string; courts: { name: string; email?: string; rulesProfile?: string }[] }[];
};
// The first court (id 1, the fixtures' court) runs the spec's own course (SPEC 9), whose texts the
// specs quote ("14 out of 20"); California's courts run California's exam, E2E_CALIFORNIA_COURT
// among them (decision 051).
const firstCourt = courts.counties[0]?.courts[0];
if (!firstCourt) throw new Error('content/courts.json lists no court');
firstCourt.rulesProfile = 'default';
courts.counties.push({
  state: 'FL',
  name: 'E2E Test County',
  courts: [{ name: E2E_TIMED_COURT, email: 'e2e.clerk@courts.example', rulesProfile: 'e2e-timed' }],
});
courts.counties.push({
  state: E2E_STRICT_COURT.state,
  name: 'E2E Strict County',
  courts: [{ name: E2E_STRICT_COURT.name, rulesProfile: 'four-hour-identity' }],
});

courts.counties.push({
  state: E2E_ONE_TRY_COURT.state,
  name: 'E2E One Try County',
  courts: [{ name: E2E_ONE_TRY_COURT.name, email: 'e2e.onetry@courts.example', rulesProfile: 'e2e-one-try' }],
});
courts.counties.push({
  state: E2E_STATE_REPORT_COURT.state,
  name: 'E2E State Report County',
  courts: [{ name: E2E_STATE_REPORT_COURT.name, email: 'e2e.state@courts.example', rulesProfile: 'e2e-state-report' }],
});
courts.counties.push({
  state: E2E_CALIFORNIA_COURT.state,
  name: 'E2E California Edition County',
  courts: [{ name: E2E_CALIFORNIA_COURT.name, rulesProfile: 'california-tvs-exam' }],
});
fs.writeFileSync(courtsFile, JSON.stringify(courts, null, 2));

startServer({ contentDir });
