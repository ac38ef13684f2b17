import { describe, expect, it } from 'vitest';
import { chapterLockedBy } from './chapter-open.ts';

describe('which quiz keeps a chapter closed', () => {
  it('keeps chapter 2 closed until the Chapter 1 quiz is passed, and opens chapter 1 always', () => {
    expect(chapterLockedBy([], 1)).toBeNull();
    expect(chapterLockedBy([], 2)).toBe(1);
    expect(chapterLockedBy([1], 2)).toBeNull();
  });

  it('names the first chapter whose quiz is missing', () => {
    expect(chapterLockedBy([1, 3], 4)).toBe(2);
    expect(chapterLockedBy([1, 2, 3], 4)).toBeNull();
  });

  it('says nothing while the completed chapters are not known yet', () => {
    expect(chapterLockedBy(undefined, 3)).toBeNull();
  });
});
