import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers. The Content-Security-Policy lets pages load only our own scripts, plus
 * Stripe's (its script, its card-form frames, its API) when Stripe is the payment provider.
 * Strict-Transport-Security is sent when the school's public address is https.
 *
 * The headers are the same on every answer, so helmet computes them once at start and each
 * answer gets the finished values (decision 019): run per request, as @fastify/helmet does, it
 * rebuilt the policy every time.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { stripe: boolean; https: boolean; styleHashes?: string[]; videoBaseUrl?: string },
): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // API answers carry personal data (a student's record, an admin's lists): a shared library or
    // classroom computer's browser must not keep them on disk. A route may still say otherwise.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done();
  });
}

/**
 * What helmet would set on an answer, as a header object. `styleHashes` admits the app page's own
 * stylesheet, written into the page (plugins/web.ts), and no other inline style.
 */
export function securityHeaders(options: {
  stripe: boolean;
  https: boolean;
  styleHashes?: string[];
  /** Where the course videos are (VIDEO_BASE_URL): a CDN's origin is admitted for media. */
  videoBaseUrl?: string;
}): Record<string, string> {
  const stripe = (...hosts: string[]) => (options.stripe ? hosts : []);
  const videoOrigin =
    options.videoBaseUrl && URL.canParse(options.videoBaseUrl) ? [new URL(options.videoBaseUrl).origin] : [];
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...stripe('https://js.stripe.com')],
        'style-src': ["'self'", ...(options.styleHashes ?? [])],
        'img-src': ["'self'", 'data:', ...stripe('https://*.stripe.com')],
        'media-src': ["'self'", ...videoOrigin],
        'connect-src': ["'self'", ...stripe('https://api.stripe.com')],
        'frame-src': ["'self'", ...stripe('https://js.stripe.com', 'https://hooks.stripe.com')],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    // Browsers keep to https for a year once the school's address is https (PUBLIC_URL); on a
    // laptop's plain http the header would be meaningless, so it is sent only then.
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // helmet is written for Node's own objects: it runs once on a real, unsent answer.
  const request = new IncomingMessage(new Socket());
  const answer = new ServerResponse(request);
  let failure: unknown;
  middleware(request, answer, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
