import { describe, expect, it } from 'vitest';
import { createKeptAnswers } from './kept-answers.ts';

describe('answers kept with the object they were built from', () => {
  it('builds an answer once per owner and key, and gives back that same object after', () => {
    const kept = createKeptAnswers<{ text: string }>();
    const owner = {};
    let builds = 0;
    const build = () => ({ text: `built ${String(++builds)}` });
    const first = kept(owner, 'en', build);
    expect(kept(owner, 'en', build)).toBe(first);
    expect(kept(owner, 'es', build)).toEqual({ text: 'built 2' });
    expect(builds).toBe(2);
  });

  it('builds anew for a new owner: a replaced copy takes its answers with it', () => {
    const kept = createKeptAnswers<{ version: number }>();
    const before = kept({ version: 1 }, 'en', () => ({ version: 1 }));
    const after = kept({ version: 2 }, 'en', () => ({ version: 2 }));
    expect(after).not.toBe(before);
    expect(after.version).toBe(2);
  });
});
