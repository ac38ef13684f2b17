/**
 * Answers kept with the object they were built from (issue 15): the course content in memory, a
 * student's progress copy, an open attempt. While that object lives and is current, the same key
 * gives back the very same answer object, so a route served with `memoisedAnswer` (plugins/
 * endpoint.ts) sends its JSON text again without building or serialising it. When the object is
 * replaced (a content edit, a new completion) its answers go with it: nothing to invalidate.
 */
export function createKeptAnswers<T extends object>(): (owner: object, key: string, build: () => T) => T {
  const kept = new WeakMap<object, Map<string, T>>();
  return (owner, key, build) => {
    let byKey = kept.get(owner);
    if (!byKey) {
      byKey = new Map();
      kept.set(owner, byKey);
    }
    let answer = byKey.get(key);
    if (answer === undefined) {
      answer = build();
      byKey.set(key, answer);
    }
    return answer;
  };
}
