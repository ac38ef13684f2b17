import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createSerializerCompiler } from './plugins/serializer.ts';
import type { AppDeps } from './deps.ts';
import { openApiTransform } from './plugins/endpoint.ts';
import { registerCrossSiteCheck } from './plugins/cross-site.ts';
import { describeErrorForLog, registerErrorHandler, unauthenticated } from './plugins/errors.ts';
import { databasePoolOf, registerMetrics } from './plugins/metrics.ts';
import { registerRequestIdHeader, requestIdGenerator } from './plugins/request-id.ts';
import { registerSecurityHeaders } from './plugins/security.ts';
import { type Auth, findAuth } from './plugins/session.ts';
import { registerVideos } from './plugins/videos.ts';
import { loadAppPage, registerWeb } from './plugins/web.ts';
import { describePublicConfig } from './features/health/public-config.ts';
import { registerAuthRoutes } from './features/auth/auth.routes.ts';
import { registerAdminRoutes } from './features/admin/admin.routes.ts';
import { registerDashboardRoutes } from './features/admin/dashboard.routes.ts';
import { registerAuditRoutes } from './features/audit/audit.routes.ts';
import { registerEmailPreviewRoutes } from './features/emails/preview.routes.ts';
import { registerQuestionRoutes } from './features/questions/questions.routes.ts';
import { registerStaffRoutes } from './features/staff/staff.routes.ts';
import { registerIdentityCheckRoutes } from './features/identity-checks/identity-checks.routes.ts';
import { registerRulesRoutes } from './features/rules/rules.routes.ts';
import { registerStateFilingRoutes } from './features/certificates/state-filings.routes.ts';
import { registerCourtViewRoutes } from './features/certificates/court-view.routes.ts';
import { registerCorrectionRoutes } from './features/certificates/corrections.routes.ts';
import { registerSeatTimeRoutes } from './features/seat-time/seat-time.routes.ts';
import { registerReminderRoutes } from './features/reminders/reminders.routes.ts';
import { registerCertificateRoutes } from './features/certificates/certificates.routes.ts';
import { registerContentRoutes } from './features/content/content.routes.ts';
import { registerCourtRoutes } from './features/courts/courts.routes.ts';
import { registerProgressRoutes } from './features/progress/progress.routes.ts';
import { registerQuizRoutes } from './features/quiz/quiz.routes.ts';
import { registerHealthRoutes } from './features/health/health.routes.ts';
import { registerPaymentRoutes, WEBHOOK_PATH } from './features/payments/payments.routes.ts';
import { registerRegistrationRoutes } from './features/registration/registration.routes.ts';
import { registerTestProviderRoutes } from './features/payments/test-provider.routes.ts';
import { isTestPaymentProvider } from './platform/payments/test-provider.ts';
import { createMetrics } from './platform/metrics.ts';
import { readDeliveryBacklog } from './features/certificates/delivery-backlog.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (memoised per request): a student or staff session, or null. */
    getAuth(): Promise<Auth | null>;
    /** getAuth's answer once asked (app.ts); read it through getAuth. */
    authLookup: Promise<Auth | null> | null;
  }
}

// Licence numbers and birth dates never reach the logs (decision 014): no bodies are logged, and
// URLs carry only ids. Headers with credentials are redacted too.
const LOG_REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/**
 * URLs are logged without anything a caller typed into them (decision 014): every query-string value
 * is redacted, names kept (`?searchTerm=[redacted]`), because searches carry licence numbers and
 * emails, the payment page's return URL a client secret, and download links a signature; a bare
 * `?value` loses all of it. The one path that carries a licence number or an email (spec 7's
 * archive lookup) loses that segment.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const pathPart = (queryStart === -1 ? url : url.slice(0, queryStart)).replace(
    /(\/api\/students\/archivedata\/)[^/]*/,
    '$1[redacted]',
  );
  if (queryStart === -1) return pathPart;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? (pair === '' ? '' : '[redacted]') : `${pair.slice(0, equals)}=[redacted]`;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

/** Builds the whole app without listening or doing I/O of its own; main.ts and tests call it. */
export type { AppDeps };

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: LOG_REDACT,
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({
                method: request.method,
                url: redactUrl(request.url),
                remoteAddress: request.ip,
              }),
            },
          },
    // Only as many proxy hops as configured: a client can write any X-Forwarded-For it likes.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxy,
    // Decision 060: a trusted proxy's well-formed X-Request-Id, or a new random id; the logger
    // names it on every line of the request (reqId).
    requestIdHeader: false,
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: 256 * 1024,
  });
  registerRequestIdHeader(app);
  app.setValidatorCompiler(validatorCompiler);
  // Answers through fast-json-stringify; in tests each is also checked by its zod schema (decision 027).
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }));
  // In tests an undeclared error code fails loudly; a real server still answers it (decision 018).
  registerErrorHandler(app, { refuseUndeclaredErrors: config.env === 'test' });

  await app.register(fastifyCookie);
  // Limits apply only to the routes that ask for one (the public certificate check).
  await app.register(fastifyRateLimit, { global: false });
  // The app page is built once at start; its inlined stylesheet's hash goes into the CSP.
  const appPage = loadAppPage(deps.webDist ?? null, describePublicConfig(deps));
  registerSecurityHeaders(app, {
    stripe: deps.payments.name === 'stripe',
    https: config.secureCookies,
    styleHashes: appPage?.styleHashes ?? [],
    videoBaseUrl: config.videoBaseUrl,
  });

  // A change sent by another site's page is refused before any route runs (decision 044).
  registerCrossSiteCheck(app, { publicUrl: config.publicUrl, exemptPaths: [WEBHOOK_PATH] });

  // Prometheus metrics only for the bearer of METRICS_TOKEN; without it, nothing (decision 060).
  if (config.metricsToken !== undefined) {
    const metrics = createMetrics({
      readDeliveryBacklog: () => readDeliveryBacklog(deps.db, deps.clock),
      pool: databasePoolOf(deps.db),
      onReadFailure: (error) => app.log.warn({ error: describeErrorForLog(error) }, 'metrics: deliveries not read'),
    });
    registerMetrics(app, { token: config.metricsToken, metrics });
  }

  // The session is looked up on first asking and kept for the rest of the request: a method
  // rather than an onRequest hook, so a request that never asks (a public route) pays nothing.
  app.decorateRequest('authLookup', null);
  app.decorateRequest('getAuth', function (this: FastifyRequest) {
    return (this.authLookup ??= findAuth(deps.db, deps.clock, this));
  });

  await app.register(fastifySwagger, {
    openapi: { info: { title: `${config.schoolName} API`, version: '1.0.0' } },
    transform: openApiTransform,
  });
  // The OpenAPI document: open outside production, signed-in staff only in production.
  app.get('/api/docs', { schema: { hide: true } }, async (request) => {
    if (config.env === 'production') {
      const auth = await request.getAuth();
      if (auth?.kind !== 'staff') throw unauthenticated();
    }
    return app.swagger();
  });

  registerHealthRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerCourtRoutes(app, deps);
  registerRegistrationRoutes(app, deps);
  registerContentRoutes(app, deps);
  registerProgressRoutes(app, deps);
  registerQuizRoutes(app, deps);
  registerCertificateRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerDashboardRoutes(app, deps);
  registerQuestionRoutes(app, deps);
  registerStaffRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerEmailPreviewRoutes(app, deps);
  registerRulesRoutes(app, deps);
  registerStateFilingRoutes(app, deps);
  registerCourtViewRoutes(app, deps);
  registerCorrectionRoutes(app, deps);
  registerSeatTimeRoutes(app, deps);
  registerIdentityCheckRoutes(app, deps);
  registerReminderRoutes(app, deps);
  await registerPaymentRoutes(app, deps);
  if (isTestPaymentProvider(deps.payments)) registerTestProviderRoutes(app, deps, deps.payments);

  await registerVideos(app, config.videoBaseUrl);
  await registerWeb(app, deps.webDist ?? null, appPage);
  return app;
}
