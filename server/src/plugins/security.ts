import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers. The Content-Security-Policy lets pages load only our own scripts, plus
 * Stripe's (its script, its card-form frames, its API) when Stripe is the payment provider.
 * Strict-Transport-Security is sent when the school's public address is https.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { stripe: boolean; https: boolean },
): Promise<void> {
  const stripe = (...hosts: string[]) => (options.stripe ? hosts : []);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...stripe('https://js.stripe.com')],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', ...stripe('https://*.stripe.com')],
        'media-src': ["'self'"],
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
}
