import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCache, createDerivedCache, createVersionedCache, isCachingOn, setCaching } from './caches.ts';

describe("an instance's caches (decision 054)", () => {
  let wasOn: boolean;
  beforeEach(() => {
    wasOn = isCachingOn();
    setCaching(true);
  });
  afterEach(() => {
    setCaching(wasOn);
  });

  it('holds at most its limit per database, the least recently used going first', () => {
    const cache = createCache<string, number>(2);
    const db = {};
    cache.set(db, 'a', 1);
    cache.set(db, 'b', 2);
    expect(cache.get(db, 'a')).toBe(1);
    cache.set(db, 'c', 3);

    expect(cache.get(db, 'b')).toBeUndefined();
    expect(cache.get(db, 'a')).toBe(1);
    expect(cache.get(db, 'c')).toBe(3);
  });

  it('keeps each database apart', () => {
    const cache = createCache<string, number>(10);
    const one = {};
    const other = {};
    cache.set(one, 'a', 1);

    expect(cache.get(other, 'a')).toBeUndefined();
    cache.delete(one, 'a');
    expect(cache.get(one, 'a')).toBeUndefined();
  });

  it('gives a versioned value only while it is as new as the version asked for, and never goes back to an older one', () => {
    const cache = createVersionedCache<{ version: number; text: string }>(10);
    const db = {};
    cache.keep(db, 7, { version: 3, text: 'three' });

    expect(cache.fresh(db, 7, 3)?.text).toBe('three');
    expect(cache.fresh(db, 7, 4)).toBeUndefined();
    cache.keep(db, 7, { version: 2, text: 'two' });
    expect(cache.fresh(db, 7, 1)?.text).toBe('three');
  });

  it('builds a derived answer once per owner and key, and anew for a new owner', () => {
    const derived = createDerivedCache<{ text: string }>();
    const owner = {};
    let builds = 0;
    const build = () => ({ text: `built ${String(++builds)}` });
    const first = derived(owner, 'en', build);

    expect(derived(owner, 'en', build)).toBe(first);
    expect(derived(owner, 'es', build)).toEqual({ text: 'built 2' });
    expect(derived({}, 'en', build)).toEqual({ text: 'built 3' });
  });

  it('keeps nothing when caching is off: every value is read and built afresh', () => {
    setCaching(false);
    const cache = createCache<string, number>(10);
    const versioned = createVersionedCache<{ version: number }>(10);
    const derived = createDerivedCache<{ n: number }>();
    const db = {};
    cache.set(db, 'a', 1);
    versioned.keep(db, 1, { version: 1 });
    let builds = 0;
    const owner = {};
    derived(owner, 'en', () => ({ n: ++builds }));
    derived(owner, 'en', () => ({ n: ++builds }));

    expect(cache.get(db, 'a')).toBeUndefined();
    expect(versioned.fresh(db, 1, 1)).toBeUndefined();
    expect(builds).toBe(2);
  });
});
