/** A court the end-to-end server adds (support/server.ts), under a profile of minutes, not hours. */
export const E2E_TIMED_COURT = 'E2E Timed Traffic Court';
/** Its profile: the module minimum the page shows and waits for. */
export const E2E_MINUTES_PER_MODULE = 2;

/**
 * A court under the strict illustration profile (content/rules/four-hour-identity.json) with no
 * clerk's address, alone in its state: the pages must say its rules, not the default course's.
 */
export const E2E_STRICT_COURT = { name: 'E2E Strict Traffic Court', state: 'WY', stateName: 'Wyoming' };

/** A court whose profile allows one attempt at each chapter quiz: an admin's exception gives another. */
export const E2E_ONE_TRY_COURT = { name: 'E2E One Try Traffic Court', state: 'VT' };

/** A court whose profile holds the certificate for the state's report: the state filing page's (decision 024). */
export const E2E_STATE_REPORT_COURT = {
  name: 'E2E State Report Traffic Court',
  state: 'ND',
  stateName: 'North Dakota',
};

/** A California court under the California profile, whose edition adds California's law (decision 051). */
export const E2E_CALIFORNIA_COURT = { name: 'E2E California Edition Court', state: 'CA' };
