import type { Db } from './client.ts';

/**
 * An instance's copies of per-student data, each valid while its version is as new as the one the
 * session lookup read (decision 019: a trigger raises the student's progress version on every
 * change, whoever writes). Kept per database, at most `limit` students, least recently used out.
 */
export function createVersionedCopies<Copy extends { version: number }>(limit: number) {
  const byDb = new WeakMap<Db, Map<number, Copy>>();
  const copiesOf = (db: Db) => {
    let copies = byDb.get(db);
    if (!copies) {
      copies = new Map();
      byDb.set(db, copies);
    }
    return copies;
  };
  return {
    /** The copy when it is as new as `version` (moved to the back of the eviction order), else undefined. */
    fresh(db: Db, studentId: number, version: number): Copy | undefined {
      const copies = copiesOf(db);
      const held = copies.get(studentId);
      if (!held || held.version < version) return undefined;
      copies.delete(studentId);
      copies.set(studentId, held);
      return held;
    },
    /** Keeps a copy just read, unless one at least as new is already held. */
    keep(db: Db, studentId: number, copy: Copy): void {
      const copies = copiesOf(db);
      const current = copies.get(studentId);
      if (current && current.version > copy.version) return;
      copies.delete(studentId);
      copies.set(studentId, copy);
      const oldest = copies.keys().next();
      if (copies.size > limit && !oldest.done) copies.delete(oldest.value);
    },
  };
}
