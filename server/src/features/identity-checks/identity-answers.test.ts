import { describe, expect, it } from 'vitest';
import { answerMatches, type IdentityRecord, normaliseAnswer, readDates } from './identity-answers.ts';

const record: IdentityRecord = {
  dob: '1990-04-15',
  zip: '93721',
  address: '1234 Main Street',
  dlNumber: 'D1234567',
  courtName: 'Superior Court of California, County of Alameda',
};

describe('identity answers compared forgivingly', () => {
  it('ignores case, spaces, punctuation and accents', () => {
    expect(normaliseAnswer('  Condado de Álamo, C.A. ')).toBe('condadodealamoca');
  });

  it.each([
    '04/15/1990',
    '4/15/1990',
    ' 04-15-1990 ',
    '4.15.90',
    '1990-04-15',
    '1990/4/15',
    '04151990',
    '041590',
    'April 15 1990',
    'april 15th, 1990',
    'Apr. 15, 1990',
    '15 April 1990',
    'the 15th of April 1990',
    '1990 April 15',
    '15 de abril de 1990',
    '15/04/1990',
  ])('accepts the date of birth written as %j', (answer) => {
    expect(answerMatches('dob', answer, record)).toBe(true);
  });

  it.each(['04/16/1990', '1990', 'April 1990', '15/15/1990', 'Mayo 15 1990', '', 'not a date'])(
    'refuses %j as the date of birth',
    (answer) => {
      expect(answerMatches('dob', answer, record)).toBe(false);
    },
  );

  it('reads an ambiguous day and month both ways round, and nothing from an impossible date', () => {
    expect(readDates('03/04/2001').sort()).toEqual(['2001-03-04', '2001-04-03']);
    expect(readDates('02/30/2001')).toEqual([]);
  });

  it('compares the first five digits of the zip code', () => {
    expect(answerMatches('zip', '93721', record)).toBe(true);
    expect(answerMatches('zip', ' 93721-4410 ', record)).toBe(true);
    expect(answerMatches('zip', '9372', record)).toBe(false);
    expect(answerMatches('zip', '93722', record)).toBe(false);
    expect(answerMatches('zip', '', { ...record, zip: '' })).toBe(false);
  });

  it("compares the last four characters of the driver's license number, in any case", () => {
    expect(answerMatches('dl_last4', '4567', record)).toBe(true);
    expect(answerMatches('dl_last4', ' 45-67 ', record)).toBe(true);
    expect(answerMatches('dl_last4', 'd1234567', record)).toBe(true);
    expect(answerMatches('dl_last4', '3456', record)).toBe(false);
    expect(answerMatches('dl_last4', '567', record)).toBe(false);
    expect(answerMatches('dl_last4', '', record)).toBe(false);
  });

  it("compares the court's name, chosen or typed", () => {
    expect(answerMatches('court', 'Superior Court of California, County of Alameda', record)).toBe(true);
    expect(answerMatches('court', 'superior court of california county of alameda', record)).toBe(true);
    expect(answerMatches('court', 'Superior Court of California, County of Fresno', record)).toBe(false);
    expect(answerMatches('court', ' , ', record)).toBe(false);
  });
});
