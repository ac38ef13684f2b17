import { config } from 'zod';

// Every contract file takes z from here, so this runs before the first schema is built. In a
// browser, zod would try `new Function` once to see whether it may compile its parsers; the
// page's Content-Security-Policy forbids eval and Chrome reports the attempt as an issue
// (decision 020). The server has no such policy and keeps the compiled parsers.
if (typeof document !== 'undefined') config({ jitless: true });

export { z } from 'zod';
