import { describe, expect, it } from 'vitest';
import { maskName, parseCompletionDate } from './certificate-dates.ts';

const TODAY = new Date('2026-11-22T15:00:00Z');

describe('parseCompletionDate (the completion date a super_admin types)', () => {
  it('reads a date written like January 1, 2023 as 2023-01-01', () => {
    expect(parseCompletionDate('January 1, 2023', TODAY)).toBe('2023-01-01');
    expect(parseCompletionDate('December 31, 2025', TODAY)).toBe('2025-12-31');
  });

  it('reads a date picker’s 2023-01-01 as itself (decision 021)', () => {
    expect(parseCompletionDate('2023-01-01', TODAY)).toBe('2023-01-01');
    expect(parseCompletionDate('2026-11-22', TODAY)).toBe('2026-11-22');
  });

  it('accepts February 29 of a leap year and refuses it in any other year', () => {
    expect(parseCompletionDate('February 29, 2024', TODAY)).toBe('2024-02-29');
    expect(parseCompletionDate('February 29, 2023', TODAY)).toBeNull();
  });

  it('accepts today and refuses tomorrow: a completion date is never in the future', () => {
    expect(parseCompletionDate('November 22, 2026', TODAY)).toBe('2026-11-22');
    expect(parseCompletionDate('November 23, 2026', TODAY)).toBeNull();
    expect(parseCompletionDate('January 1, 2030', TODAY)).toBeNull();
  });

  it.each([
    ['an abbreviated month', 'Jan 1, 2023'],
    ['a month name in lower case', 'january 1, 2023'],
    ['a day the month does not have', 'January 32, 2023'],
    ['day zero', 'January 0, 2023'],
    ['the 31st of a 30-day month', 'April 31, 2023'],
    ['a numeric date', '1/1/2023'],
    ['an ISO date of a day the month does not have', '2023-02-30'],
    ['an ISO date in the future', '2026-11-23'],
    ['a missing comma', 'January 1 2023'],
    ['a two-digit year', 'January 1, 23'],
    ['trailing junk', 'January 1, 2023 at noon'],
    ['leading junk', 'on January 1, 2023'],
    ['an empty string', ''],
  ])('refuses %s (%j)', (_label, text) => {
    expect(parseCompletionDate(text, TODAY)).toBeNull();
  });
});

describe('maskName (the name on the public verification page)', () => {
  it('shows only the initials of the first and last name', () => {
    expect(maskName('José', 'Núñez')).toBe('J. N.');
  });

  it('never shows a second letter of either name, nor the length of either', () => {
    expect(maskName('Maria', 'Lopez-Hernandez')).toBe('M. L.');
    expect(maskName('Sam', 'Li')).toBe(maskName('Sue', 'Lindqvist-Borg'));
  });

  it('takes initials by whole letters outside ASCII, in capitals', () => {
    expect(maskName('zoë', 'łukasz')).toBe('Z. Ł.');
  });
});
