/** Time as the server sees it; tests pass a clock they control. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The calendar day (YYYY-MM-DD) a moment falls on in a time zone: a court's "completed on". */
export function localDate(moment: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    moment,
  );
}
