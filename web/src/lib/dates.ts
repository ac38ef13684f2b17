import i18n from './i18n.ts';
import { embeddedPublicConfig } from './public-config.ts';

/**
 * Every date the app shows, in one place (decision 021): a moment is shown on the school's clock
 * (SCHOOL_TIME_ZONE, from the public configuration), the clock the certificate and the court go
 * by, so a quiz passed at 11 pm Pacific is that day's, whatever the reader's own clock says; and
 * in the reader's language.
 */
let schoolTimeZone = embeddedPublicConfig?.schoolTimeZone ?? 'America/Los_Angeles';

/** Where the page was served without its configuration (the Vite dev server), the fetched one. */
export function setSchoolTimeZone(zone: string): void {
  schoolTimeZone = zone;
}

/** The locale of dates in the interface language. */
const localeOf = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');

// Building an Intl formatter is costly; a page of 25 rows asks for the same one 25 times.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, found);
  }
  return found;
}

/** A calendar day (YYYY-MM-DD) written out in the interface language: "January 30, 2027". */
export function formatDay(isoDate: string, language: string = i18n.language): string {
  // A day has no time zone: it is read and written as the same day.
  return formatter(localeOf(language), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));
}

/** A moment (ISO) on the school's clock, with the zone named: "Jan 23, 2027, 10:00 PM PST". */
export function formatMoment(iso: string, language: string = i18n.language): string {
  return formatter(localeOf(language), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: schoolTimeZone,
  }).format(new Date(iso));
}

/**
 * Spec 2: a moment's day on the school's calendar in short US format (11/22/2026), the form the
 * court's papers use, in either language.
 */
export function formatShortDate(iso: string): string {
  return formatter('en-US', { timeZone: schoolTimeZone }).format(new Date(iso));
}

/** Today on the school's calendar, as YYYY-MM-DD. */
export function schoolToday(now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return formatter('en-CA', { timeZone: schoolTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
}
