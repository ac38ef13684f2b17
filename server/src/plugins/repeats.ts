/**
 * Decision 040: a staff action sent again with the same input by the same staff member within
 * this time (a double click, two tabs, a request retried after a reload) is the same action: it is
 * answered with what the first did, not done twice. Each such action locks the student's row
 * before it looks for the first, so two sent at once are taken one after the other.
 */
export const REPEAT_WINDOW_MS = 60_000;

/** The earliest moment a first action may have been taken for `now`'s to be its repeat. */
export function repeatWindowStart(now: Date): Date {
  return new Date(now.getTime() - REPEAT_WINDOW_MS);
}
