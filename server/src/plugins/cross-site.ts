import type { FastifyInstance, FastifyRequest } from 'fastify';

export const CROSS_SITE_MESSAGE = 'Cross-site requests are refused.';

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Whether a change comes from another site (decision 044). A browser says where a request comes
 * from: Sec-Fetch-Site when it sends it (every current browser), otherwise Origin; `same-site` is
 * refused too, since a sibling subdomain is not the school's app. A call with neither header is
 * no browser's page at work (the Stripe webhook, curl, a test): it passes, its own credentials
 * decide.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'cross-site' || fetchSite === 'same-site';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (origin === publicOrigin) return false;
  // Or the address the request was sent to (a laptop's http://localhost:3000 under another
  // PUBLIC_URL). Its host only: behind a proxy that ends TLS the scheme seen here is http.
  const host = request.headers.host;
  return host === undefined || parseUrl(origin)?.host !== host;
}

/**
 * Refuses every /api/ call another site's page sends (cross-site request forgery), whatever its
 * method, with 403 FORBIDDEN before the route runs (decisions 044, 046). SameSite=Lax alone let a
 * form or a text/plain fetch from any site reach a staff route with the staff member's cookie,
 * and a top-level navigation carries the cookie on a GET: some GETs act (drawing a quiz attempt,
 * asking an identity question whose clock then runs), so no method is exempt. `exemptPaths` are
 * the calls meant for other sites (the payment provider's webhook, which has its own signature).
 */
export function registerCrossSiteCheck(
  app: FastifyInstance,
  options: { publicUrl: string; exemptPaths: readonly string[] },
): void {
  const exempt = new Set(options.exemptPaths);
  const publicOrigin = parseUrl(options.publicUrl)?.origin;
  app.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?', 1)[0]!;
    if (path.startsWith('/api/') && !exempt.has(path) && isCrossSite(request, publicOrigin)) {
      // Sent as written rather than thrown: the refusal is the same on every route, whatever its
      // contract declares (like Fastify's own 400s), and no route's answer schema applies to it.
      const body = { error: { code: 'FORBIDDEN', message: CROSS_SITE_MESSAGE, requestId: request.id } };
      void reply.code(403).type('application/json; charset=utf-8').send(JSON.stringify(body));
      return;
    }
    done();
  });
}
