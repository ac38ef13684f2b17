import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** Security headers: only our own scripts, styles and connections (Stripe is added with payments). */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'media-src': ["'self'"],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    // The app is served over plain http on a laptop; HSTS belongs to the https front door.
    strictTransportSecurity: false,
  });
}
