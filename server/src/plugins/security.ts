import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers. The Content-Security-Policy lets pages load only our own scripts, plus
 * Stripe's (its script, its card-form frames, its API) when Stripe is the payment provider.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { stripe: boolean }): Promise<void> {
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
    // The app is served over plain http on a laptop; HSTS belongs to the https front door.
    strictTransportSecurity: false,
  });
}
