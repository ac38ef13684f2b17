import { MONTHS } from '../../platform/pdf/certificate-pdf.ts';

/**
 * Spec 2: the completion date a super_admin types, like 'January 1, 2023', parsed strictly: a full
 * English month name, a real day, a four-digit year, not in the future; or as a date picker gives
 * it, 2023-01-01 (decision 021). Returns YYYY-MM-DD or null.
 */
export function parseCompletionDate(text: string, today: Date): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const written = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/.exec(text.trim());
  let year: number;
  let month: number;
  let day: number;
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])];
  } else if (written) {
    [year, month, day] = [Number(written[3]), MONTHS.indexOf(written[1] ?? ''), Number(written[2])];
  } else {
    return null;
  }
  if (month < 0) return null;
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day || year < 2000 || date > today) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * A student's name on the public verification page: initials only ("J. N."), so anyone holding
 * a certificate number can check it belongs to the person in front of them, but learns neither
 * the first name nor how long the last name is (decision 016). A hyphenated or multi-part name gives
 * the initial of its first part.
 */
export function maskName(firstName: string, lastName: string): string {
  const initial = (name: string) => [...name.trim()][0]?.toLocaleUpperCase() ?? '';
  return [initial(firstName), initial(lastName)]
    .filter((letter) => letter !== '')
    .map((letter) => `${letter}.`)
    .join(' ');
}
