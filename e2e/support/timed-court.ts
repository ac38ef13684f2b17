/** The court the end-to-end server adds (support/server.ts), under a profile of minutes, not hours. */
export const E2E_TIMED_COURT = 'E2E Timed Traffic Court';
/** Its profile: the module minimum the page shows and waits for. */
export const E2E_MINUTES_PER_MODULE = 2;
