import { afterAll, beforeAll } from 'vitest';
import { isCachingOn, setCaching } from '../platform/caches.ts';

/**
 * For a describe block that checks what a cache saves (a read not made, a serialisation not
 * repeated): caching on for its tests, whatever the run's CACHING, and as it was after them.
 */
export function withCachingOn(): void {
  let wasOn = true;
  beforeAll(() => {
    wasOn = isCachingOn();
    setCaching(true);
  });
  afterAll(() => {
    setCaching(wasOn);
  });
}
