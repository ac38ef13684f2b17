import { describe, expect, it } from 'vitest';
import { IdParam, MAX_ID } from './primitives.ts';

describe('IdParam: an id as a path, a query string or a body writes it', () => {
  it('reads plain decimal digits as the id', () => {
    expect(IdParam.parse('42')).toBe(42);
    expect(IdParam.parse(String(MAX_ID))).toBe(MAX_ID);
  });

  it('takes a whole number as a body carries it', () => {
    expect(IdParam.parse(7)).toBe(7);
  });

  it.each(['0x1f', '1e3', ' 12', '12 ', '+12', '012', '12.0', '', '0', '-1', '2147483648', '99999999999999999999'])(
    'refuses %j with the message every bad id gets',
    (value) => {
      const result = IdParam.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        `must be a whole number from 1 to ${String(MAX_ID)}`,
      ]);
    },
  );

  it.each([0, -1, 1.5, MAX_ID + 1])('refuses the number %s in a body', (value) => {
    expect(IdParam.safeParse(value).success).toBe(false);
  });
});
