import { loadConfig } from '../config.ts';
import { setCaching } from '../platform/caches.ts';

// A vitest setup file: the suite keeps copies in memory as the server does, unless it is run with
// CACHING=off (.ci/run does once), which shows that no behaviour rests on a cache (decision 054).
setCaching(loadConfig({ CACHING: process.env.CACHING }).caching);
