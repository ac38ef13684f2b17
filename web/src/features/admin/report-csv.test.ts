import { describe, expect, it } from 'vitest';
import type { ReportRow } from '@ts/contract';
import { neutraliseCell, toCsv } from './report-csv.ts';

const row = (court_name: string, counts = [1, 2, 3, 4, 5]): ReportRow => ({
  court_id: 7,
  court_name,
  seven_day: counts[0]!,
  thirty_day: counts[1]!,
  sixty_day: counts[2]!,
  ninety_day: counts[3]!,
  total: counts[4]!,
});

describe('report CSV', () => {
  describe('neutraliseCell', () => {
    it.each([
      ['=', '=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
      ['+', '+1+2', "'+1+2"],
      ['-', '-2+3', "'-2+3"],
      ['@', '@SUM(A1:A2)', "'@SUM(A1:A2)"],
      ['a tab', '\t=1+1', "'\t=1+1"],
      ['a carriage return', '\r=1+1', `"'\r=1+1"`],
    ])('prefixes a cell starting with %s with a single quote, so it opens as text', (_, value, expected) => {
      expect(neutraliseCell(value)).toBe(expected);
    });

    it('leaves a formula character alone when it is not the first', () => {
      expect(neutraliseCell('Court = Traffic + Parking @ 2nd St')).toBe('Court = Traffic + Parking @ 2nd St');
    });

    it('quotes a field with a comma, a semicolon, a quote or a line break, doubling inner quotes (RFC 4180)', () => {
      expect(neutraliseCell('Court, North')).toBe('"Court, North"');
      // A spreadsheet splitting on semicolons would otherwise open a cell starting with =.
      expect(neutraliseCell('Ann;=HYPERLINK("x")')).toBe('"Ann;=HYPERLINK(""x"")"');
      expect(neutraliseCell('The "Old" Court')).toBe('"The ""Old"" Court"');
      expect(neutraliseCell('Line one\nline two')).toBe('"Line one\nline two"');
      expect(neutraliseCell('Line one\r\nline two')).toBe('"Line one\r\nline two"');
    });

    it('writes numbers and plain text as they are', () => {
      expect(neutraliseCell(0)).toBe('0');
      expect(neutraliseCell(1234)).toBe('1234');
      expect(neutraliseCell('Superior Court of Los Ángeles')).toBe('Superior Court of Los Ángeles');
    });
  });

  describe('toCsv', () => {
    it('writes the header and one CRLF-ended line per court, in the columns of the report', () => {
      expect(toCsv([row('Fresno Traffic Court', [1, 2, 3, 4, 5]), row('Kern Court', [0, 0, 1, 1, 9])])).toBe(
        'court_name,seven_day,thirty_day,sixty_day,ninety_day,total\r\n' +
          'Fresno Traffic Court,1,2,3,4,5\r\n' +
          'Kern Court,0,0,1,1,9\r\n',
      );
    });

    it('neutralises and quotes a hostile court name inside a row, leaving the counts intact', () => {
      expect(toCsv([row('=cmd|" /C calc"!A0, North', [0, 1, 2, 3, 4])])).toBe(
        'court_name,seven_day,thirty_day,sixty_day,ninety_day,total\r\n' +
          `"'=cmd|"" /C calc""!A0, North",0,1,2,3,4\r\n`,
      );
    });

    it('writes only the header when no court has a completion', () => {
      expect(toCsv([])).toBe('court_name,seven_day,thirty_day,sixty_day,ninety_day,total\r\n');
    });
  });
});
