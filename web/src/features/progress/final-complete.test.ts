import { describe, expect, it } from 'vitest';
import { isFinalComplete } from './final-complete.ts';

describe('the final exam complete (spec 2)', () => {
  it('is complete once the final is among the completed chapters', () => {
    expect(isFinalComplete([1, 2, 3, 4, 6], { completed_at: null })).toBe(true);
  });

  it('is complete when the stored user carries a completion, before the chapters load', () => {
    expect(isFinalComplete(undefined, { completed_at: '2026-11-01T00:00:00Z' })).toBe(true);
  });

  it('is not complete with the four chapters alone, or without a user', () => {
    expect(isFinalComplete([1, 2, 3, 4], { completed_at: null })).toBe(false);
    expect(isFinalComplete(undefined, null)).toBe(false);
  });
});
