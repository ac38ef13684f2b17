import { describe, expect, it } from 'vitest';
import { nextCheckAtSeconds, scheduleFactor, stableHash } from './identity-schedule.ts';

describe('the identity-check schedule', () => {
  it('spreads the moments of the checks between half and one and a half times the interval, the same way each time', () => {
    const factors = Array.from({ length: 200 }, (_, index) => scheduleFactor(1000 + index, index % 5));
    expect(factors.every((factor) => factor >= 0.5 && factor < 1.5)).toBe(true);
    expect(Math.min(...factors)).toBeLessThan(0.7);
    expect(Math.max(...factors)).toBeGreaterThan(1.3);
    expect(scheduleFactor(42, 3)).toBe(scheduleFactor(42, 3));
    expect(nextCheckAtSeconds(42, 45, 3, 1000)).toBe(Math.ceil(1000 + 45 * 60 * scheduleFactor(42, 3)));
  });

  it('hashes with 32-bit FNV-1a, so schedules and court choices stay what they were', () => {
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('a')).toBe(0xe40c292c);
    expect(stableHash('foobar')).toBe(0xbf9cf968);
  });
});
