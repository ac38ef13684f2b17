/**
 * Everything an instance keeps in memory to answer again without a read (decision 054), in one
 * place with one rule:
 *
 * - Each cache is keyed per database handle (an app has one; tests open many), and holds at most
 *   its limit of entries, the least recently used going first.
 * - Nothing here is ever the only copy: a value missing (evicted, never read, caching off) is read
 *   again from the database, so no answer depends on what an instance happens to hold. A value
 *   that can go stale carries the version it stands for, and is used only while that version is
 *   current (versioned caches: decision 019's progress version).
 * - Answers derived from a cached value (a chapter list built from the content copy) live with
 *   that value: when it is replaced or evicted, they go with it.
 * - `CACHING=off` keeps nothing at all (setCaching): every answer is read and built afresh. The
 *   suite runs once so (.ci/run), which shows no behaviour rests on a cache.
 */

let cachingOn = true;

/** Turns caching on or off for the whole process (the server from CACHING, tests from theirs). */
export function setCaching(on: boolean): void {
  cachingOn = on;
}

export function isCachingOn(): boolean {
  return cachingOn;
}

export interface Cache<Key, Value> {
  /** The value held for `key` (now the most recently used), or undefined. */
  get(db: object, key: Key): Value | undefined;
  /** Holds `value` for `key`, letting the least recently used entry go past the limit. */
  set(db: object, key: Key, value: Value): void;
  delete(db: object, key: Key): void;
}

/** A cache of at most `limit` entries per database handle. */
export function createCache<Key, Value>(limit: number): Cache<Key, Value> {
  const byDb = new WeakMap<object, Map<Key, Value>>();
  const entriesOf = (db: object) => {
    let entries = byDb.get(db);
    if (!entries) {
      entries = new Map();
      byDb.set(db, entries);
    }
    return entries;
  };
  return {
    get(db, key) {
      if (!cachingOn) return undefined;
      const entries = entriesOf(db);
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // A Map iterates in insertion order: moved to the back, it is the last to go.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(db, key, value) {
      if (!cachingOn) return;
      const entries = entriesOf(db);
      entries.delete(key);
      entries.set(key, value);
      const oldest = entries.keys().next();
      if (entries.size > limit && !oldest.done) entries.delete(oldest.value);
    },
    delete(db, key) {
      byDb.get(db)?.delete(key);
    },
  };
}

export interface VersionedCache<Value extends { version: number }> {
  /** The value held for `key` when it is as new as `version`, else undefined. */
  fresh(db: object, key: number, version: number): Value | undefined;
  /** Holds a value just read, unless one at least as new is already held. */
  keep(db: object, key: number, value: Value): void;
}

/** A cache of per-student values that carry the version they stand for (decision 019). */
export function createVersionedCache<Value extends { version: number }>(limit: number): VersionedCache<Value> {
  const cache = createCache<number, Value>(limit);
  return {
    fresh(db, key, version) {
      const held = cache.get(db, key);
      return held && held.version >= version ? held : undefined;
    },
    keep(db, key, value) {
      const held = cache.get(db, key);
      if (held && held.version > value.version) return;
      cache.set(db, key, value);
    },
  };
}

/**
 * Answers derived from a cached value, kept with it: while `owner` lives, the same key gives back
 * the very same answer object, so a route serving it (plugins/endpoint.ts memoisedAnswer) sends
 * its JSON again without building or serialising it. When the owner is replaced or evicted its
 * answers go with it: nothing to invalidate.
 */
export function createDerivedCache<Answer>(): (owner: object, key: string, build: () => Answer) => Answer {
  const byOwner = new WeakMap<object, Map<string, Answer>>();
  return (owner, key, build) => {
    if (!cachingOn) return build();
    let answers = byOwner.get(owner);
    if (!answers) {
      answers = new Map();
      byOwner.set(owner, answers);
    }
    if (answers.has(key)) return answers.get(key) as Answer;
    const answer = build();
    answers.set(key, answer);
    return answer;
  };
}
