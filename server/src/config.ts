import os from 'node:os';
import { z } from 'zod';

/**
 * The only reader of process.env (a lint rule forbids it elsewhere). Every variable the
 * README's configuration table lists is parsed here, and a bad value stops the start with
 * a list of every problem.
 */
const blankAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(blankAsUndefined, z.string().optional());
const flag = z.preprocess(blankAsUndefined, z.enum(['true', 'false']).default('false'));

const ConfigSchema = z.object({
  NODE_ENV: z.preprocess(blankAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(blankAsUndefined, z.string().default('0.0.0.0')),
  /**
   * The school's address as students, courts and staff reach it: an origin only. Every link the
   * school sends (a certificate's QR code, download and set-password links) is built on it, so a
   * trailing slash is dropped and a path, query or fragment refused (`https://school.example/`
   * made `//verify/...`, which the app does not route).
   */
  PUBLIC_URL: z.preprocess(
    blankAsUndefined,
    z
      .url()
      .refine((value) => {
        // Checked after url() even when it failed (zod goes on to report every problem).
        const url = URL.canParse(value) ? new URL(value) : null;
        return url === null || (url.pathname === '/' && url.search === '' && url.hash === '');
      }, 'must be an origin such as https://school.example, without a path, query or fragment')
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
  DATA_DIR: z.preprocess(blankAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(blankAsUndefined, z.string().optional()),
  /** Connections to PostgreSQL per instance (decision 029); unset: defaultDatabasePoolSize(). */
  DATABASE_POOL_SIZE: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).max(100).optional()),
  ADMIN_USERNAME: z.preprocess(blankAsUndefined, z.string().default('admin')),
  ADMIN_EMAIL: z.preprocess(blankAsUndefined, z.string().default('admin@example.com')),
  ADMIN_PASSWORD: z.preprocess(blankAsUndefined, z.string().min(12, 'must be at least 12 characters').optional()),
  SMTP_URL: optionalText,
  MAIL_FROM: z.preprocess(blankAsUndefined, z.string().default('Traffic School <no-reply@example.com>')),
  SUPPORT_EMAIL: z.preprocess(blankAsUndefined, z.string().default('support@example.com')),
  SCHOOL_NAME: z.preprocess(blankAsUndefined, z.string().default('Safe Roads Traffic School')),
  /**
   * Printed on every certificate (decision 062) so a court clerk can reach the school without a
   * search. The defaults are example values for a local run; production refuses them unset.
   */
  SCHOOL_ADDRESS: z.preprocess(blankAsUndefined, z.string().default('100 Example Street, Sacramento, CA 95814')),
  SCHOOL_PHONE: z.preprocess(blankAsUndefined, z.string().default('(555) 010-0100')),
  /** `Name|Title`, printed under the certificate's signature line (decision 062); the title may be left out. */
  CERTIFICATE_SIGNER: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('Alex Example|School Director')
      .refine((value) => value.split('|').length <= 2 && (value.split('|')[0] ?? '').trim() !== '', {
        message:
          'must be the signer’s name, optionally followed by | and their title, e.g. "Maria Lopez|School Director"',
      }),
  ),
  COURSE_PRICE_CENTS: z.preprocess(blankAsUndefined, z.coerce.number().int().positive().default(2995)),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  VIDEO_BASE_URL: z.preprocess(blankAsUndefined, z.string().default('/videos')),
  /** How many proxies in front of the server to trust for the client's address (0: none). */
  TRUST_PROXY: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(10).default(0)),
  /** The school's time zone: completion dates and certificate years are the school's calendar days. */
  SCHOOL_TIME_ZONE: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('America/Los_Angeles')
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as America/Los_Angeles'),
  ),
  /** Production escape hatches (decision 016): each lets one unsafe production setting through on purpose. */
  ALLOW_TEST_PAYMENTS: flag,
  ALLOW_MAIL_OUTBOX: flag,
  ALLOW_HTTP: flag,
  /** Decision 060: unset, there is no /metrics; set, Prometheus reads it with this bearer token. */
  METRICS_TOKEN: z.preprocess(blankAsUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  /** Decision 054: `off` keeps nothing in memory, every answer read afresh (the suite runs once so). */
  CACHING: z.preprocess(blankAsUndefined, z.enum(['on', 'off']).default('on')),
  LOG_LEVEL: z.preprocess(
    blankAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

type Env = z.output<typeof ConfigSchema>;

/**
 * Rules that tie several variables together. They run on the raw values even when some field
 * is invalid, so a start that fails lists every problem at once.
 */
function crossFieldProblems(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const problems: string[] = [];
  if (set('STRIPE_SECRET_KEY') !== set('STRIPE_PUBLISHABLE_KEY')) {
    problems.push(
      'STRIPE_SECRET_KEY: set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY together (or neither, for the test provider)',
    );
  }
  // Without the webhook secret a payment whose browser never came back would stay unfulfilled.
  if (env.NODE_ENV === 'production' && set('STRIPE_SECRET_KEY') && !set('STRIPE_WEBHOOK_SECRET')) {
    problems.push('STRIPE_WEBHOOK_SECRET: is required in production when Stripe keys are set');
  }
  if (env.NODE_ENV === 'production') problems.push(...productionProblems(env));
  return problems;
}

/**
 * A production start refuses the settings that would quietly hurt real students (decision 016): the
 * built-in test provider (or Stripe test keys) would mark anyone paid, an outbox folder would keep
 * every certificate and set-password email from being sent, and plain http would send session
 * cookies in the clear. Each can still be allowed on purpose, by name.
 */
function productionProblems(env: Record<string, string | undefined>): string[] {
  const allowed = (name: string) => env[name] === 'true';
  const problems: string[] = [];
  const secretKey = env.STRIPE_SECRET_KEY ?? '';
  if (!allowed('ALLOW_TEST_PAYMENTS')) {
    if (secretKey === '') {
      problems.push(
        'STRIPE_SECRET_KEY: is required in production (without it the built-in test provider marks anyone paid); set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or ALLOW_TEST_PAYMENTS=true',
      );
    } else if (secretKey.startsWith('sk_test_')) {
      problems.push(
        'STRIPE_SECRET_KEY: is a test key (sk_test_), which takes no real money; set a live key, or ALLOW_TEST_PAYMENTS=true',
      );
    }
  }
  if (!allowed('ALLOW_MAIL_OUTBOX') && (env.SMTP_URL ?? '') === '') {
    problems.push(
      'SMTP_URL: is required in production (without it certificates and set-password emails stay in DATA_DIR/outbox); set SMTP_URL, or ALLOW_MAIL_OUTBOX=true',
    );
  }
  if (!allowed('ALLOW_HTTP') && !(env.PUBLIC_URL ?? '').startsWith('https://')) {
    problems.push(
      'PUBLIC_URL: must be an https:// address in production (sessions and certificate links travel in it); set PUBLIC_URL=https://..., or ALLOW_HTTP=true',
    );
  }
  // The server speaks no TLS, so an https address means a proxy in front. Left at 0 there, every
  // client has the proxy's address, and 30 failed sign-ins from anyone shut every sign-in out.
  // Decision 062: the example defaults would print a made-up address, phone and signer on every
  // certificate a court receives, and a clerk who cannot reach the school rejects it.
  for (const name of ['SCHOOL_ADDRESS', 'SCHOOL_PHONE', 'CERTIFICATE_SIGNER']) {
    if ((env[name] ?? '').trim() === '') {
      problems.push(
        `${name}: is required in production (it is printed on every certificate; the default is an example)`,
      );
    }
  }
  if ((env.PUBLIC_URL ?? '').startsWith('https://') && (env.TRUST_PROXY ?? '').trim() === '') {
    problems.push(
      'TRUST_PROXY: must be set in production behind the https proxy (usually 1: the proxies in front of the server), so each client is throttled by its own address; set TRUST_PROXY=0 only if clients reach the server directly',
    );
  }
  return problems;
}

/**
 * Connections per instance when DATABASE_POOL_SIZE is not set: twice the machine's cores, at
 * least 4, rather than node-postgres' 10 (decision 029, from alternated runs of the 1,000-student
 * journey): past what the cores can serve, more connections only add PostgreSQL processes
 * competing for them.
 */
export function defaultDatabasePoolSize(cores: number = os.availableParallelism()): number {
  return Math.max(4, 2 * cores);
}

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly secureCookies: boolean;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Connections to PostgreSQL this instance keeps at most (DATABASE_POOL_SIZE). */
  readonly databasePoolSize: number;
  readonly admin: { readonly username: string; readonly email: string; readonly password: string | undefined };
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly supportEmail: string;
  readonly schoolName: string;
  /** SCHOOL_ADDRESS and SCHOOL_PHONE: printed on every certificate (decision 062). */
  readonly schoolAddress: string;
  readonly schoolPhone: string;
  /** CERTIFICATE_SIGNER, split: who signs the certificates (decision 062); title '' when none was given. */
  readonly certificateSigner: { readonly name: string; readonly title: string };
  readonly coursePriceCents: number;
  readonly stripe: {
    readonly secretKey: string | undefined;
    readonly publishableKey: string | undefined;
    readonly webhookSecret: string | undefined;
  };
  /** No Stripe keys: card payments go to the built-in test provider (never real money). */
  readonly testPayments: boolean;
  readonly videoBaseUrl: string;
  readonly logLevel: string;
  /** Whether the instance keeps copies in memory (CACHING, platform/caches.ts). */
  readonly caching: boolean;
  /** Proxy hops whose X-Forwarded-For is believed (the rate limits key on the client's address). */
  readonly trustProxy: number;
  readonly schoolTimeZone: string;
  /** The bearer token /metrics asks for (METRICS_TOKEN); undefined: no /metrics (decision 060). */
  readonly metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e: Env = parsed.data;
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${String(e.PORT)}`;
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? defaultDatabasePoolSize(),
    admin: Object.freeze({ username: e.ADMIN_USERNAME, email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    schoolName: e.SCHOOL_NAME,
    schoolAddress: e.SCHOOL_ADDRESS.trim(),
    schoolPhone: e.SCHOOL_PHONE.trim(),
    certificateSigner: parseSigner(e.CERTIFICATE_SIGNER),
    coursePriceCents: e.COURSE_PRICE_CENTS,
    stripe: Object.freeze({
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    }),
    testPayments: !e.STRIPE_SECRET_KEY,
    videoBaseUrl: e.VIDEO_BASE_URL,
    logLevel: e.LOG_LEVEL,
    caching: e.CACHING === 'on',
    trustProxy: e.TRUST_PROXY,
    schoolTimeZone: e.SCHOOL_TIME_ZONE,
    metricsToken: e.METRICS_TOKEN,
  });
}

function parseSigner(value: string): Config['certificateSigner'] {
  const [name = '', title = ''] = value.split('|');
  return Object.freeze({ name: name.trim(), title: title.trim() });
}

/**
 * Production behaviour on a machine with no Stripe, SMTP or TLS (tests and the bench): the three
 * escape hatches a real production start must not need, and the example school's certificate
 * details (decision 062), which a real start sets to its own.
 */
export const PRODUCTION_WITHOUT_SERVICES = {
  NODE_ENV: 'production',
  ALLOW_TEST_PAYMENTS: 'true',
  ALLOW_MAIL_OUTBOX: 'true',
  ALLOW_HTTP: 'true',
  SCHOOL_ADDRESS: '100 Example Street, Sacramento, CA 95814',
  SCHOOL_PHONE: '(555) 010-0100',
  CERTIFICATE_SIGNER: 'Alex Example|School Director',
} as const;

/** Settings for tests: everything at its default, quiet logs, and the caller's overrides. */
export function loadTestConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...overrides });
}
