import i18n from './i18n.ts';

/** The locale of dates in the interface language. */
const localeOf = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');

/** A calendar day (YYYY-MM-DD) written out in the interface language: "January 30, 2027". */
export function formatDay(isoDate: string, language: string = i18n.language): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(localeOf(language), {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
}

/** A moment (ISO) as a date and time on the student's own clock: "Jan 23, 2027, 10:00 AM". */
export function formatMoment(iso: string, language: string = i18n.language): string {
  return new Date(iso).toLocaleString(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' });
}
