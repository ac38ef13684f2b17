/** Time as the server sees it; tests pass a clock they control. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one (decision 019). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) a moment falls on in a time zone: a court's "completed on". */
export function localDate(moment: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(moment);
}

/** Built once: a page of students asks for it once a row. */
const longUsFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day (YYYY-MM-DD) as the server's messages and the admin pages write it: "January 30, 2027". */
export function longUsDate(isoDate: string): string {
  return longUsFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/** A calendar day (YYYY-MM-DD) as the course writes dates of birth: MM/DD/YYYY. */
export const isoToUs = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;
