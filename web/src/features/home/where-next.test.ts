import { describe, expect, it } from 'vitest';
import type { Module } from '@ts/contract';
import { currentChapter, whereNext } from './where-next.ts';

const module = (id: number, complete: boolean): Module => ({
  id,
  chapter_id: 1,
  title: `Module ${String(id)}`,
  href: `/content/1/${String(id)}`,
  complete,
});

describe("where home's Continue card sends the student", () => {
  it('shows nothing new to a student who has not started: Begin Course is the way in', () => {
    expect(whereNext([], [module(1, false), module(2, false)])).toEqual({ kind: 'not_started' });
  });

  it('names the next module of the chapter the student is in', () => {
    expect(whereNext([], [module(1, true), module(2, false)])).toEqual({
      kind: 'chapter',
      chapter: 1,
      next: { module: module(2, false) },
    });
  });

  it("names the chapter's quiz once every module of it is complete", () => {
    expect(whereNext([1], [module(5, true), module(6, true)])).toEqual({
      kind: 'chapter',
      chapter: 2,
      next: { quiz: 2 },
    });
  });

  it('sends a student who passed chapters 1-4 to the final, and one who passed the final to the certificate', () => {
    expect(whereNext([1, 2, 3, 4], undefined)).toEqual({ kind: 'final' });
    expect(whereNext([1, 2, 3, 4, 6], undefined)).toEqual({ kind: 'complete' });
  });

  it('takes the chapters in order whatever order they were recorded in', () => {
    expect(currentChapter([2, 1, 4])).toBe(3);
    expect(currentChapter([])).toBe(1);
  });
});
