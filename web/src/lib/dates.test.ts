// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { formatDay, formatMoment, formatShortDate, schoolToday, setSchoolTimeZone } from './dates.ts';

// The test run's own clock is whatever the machine's is; every date here is the school's.
afterEach(() => setSchoolTimeZone('America/Los_Angeles'));

/** Spaces of any kind (Intl writes a narrow no-break space before AM/PM) as plain ones. */
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('dates on the school’s calendar, in the reader’s language', () => {
  it('gives a moment late in a Pacific evening the Pacific day, not the next UTC one', () => {
    // 11:30 pm on 23 November in Los Angeles is already 24 November in UTC.
    expect(formatShortDate('2026-11-24T07:30:00Z')).toBe('11/23/2026');
    expect(schoolToday(new Date('2026-11-24T07:30:00Z'))).toBe('2026-11-23');
    // Half an hour later in UTC-terms of the school it is midnight: the next day.
    expect(formatShortDate('2026-11-24T08:00:00Z')).toBe('11/24/2026');
  });

  it('writes a moment with the school’s zone named, in English and in Spanish months', () => {
    expect(plain(formatMoment('2026-11-24T07:30:00Z', 'en'))).toBe('Nov 23, 2026, 11:30 PM PST');
    expect(plain(formatMoment('2026-11-24T07:30:00Z', 'es'))).toMatch(/^23 nov 2026, 11:30 p\. ?m\. PST$/);
  });

  it('follows a school in another time zone', () => {
    setSchoolTimeZone('America/New_York');
    expect(formatShortDate('2026-11-24T04:30:00Z')).toBe('11/23/2026');
    expect(formatShortDate('2026-11-24T05:30:00Z')).toBe('11/24/2026');
  });

  it('writes a calendar day as that same day in either language', () => {
    expect(formatDay('2027-01-30', 'en')).toBe('January 30, 2027');
    expect(formatDay('2027-01-30', 'es')).toBe('30 de enero de 2027');
  });
});
