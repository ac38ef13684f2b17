import { z } from 'zod';

/**
 * The only reader of process.env (a lint rule forbids it elsewhere). Every variable the
 * README's configuration table lists is parsed here, and a bad value stops the start with
 * a list of every problem.
 */
const blankAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(blankAsUndefined, z.string().optional());

const ConfigSchema = z
  .object({
    NODE_ENV: z.preprocess(blankAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: z.preprocess(blankAsUndefined, z.string().default('0.0.0.0')),
    PUBLIC_URL: z.preprocess(blankAsUndefined, z.url().optional()),
    DATA_DIR: z.preprocess(blankAsUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(blankAsUndefined, z.string().optional()),
    ADMIN_USERNAME: z.preprocess(blankAsUndefined, z.string().default('admin')),
    ADMIN_EMAIL: z.preprocess(blankAsUndefined, z.string().default('admin@example.com')),
    ADMIN_PASSWORD: optionalText,
    SMTP_URL: optionalText,
    MAIL_FROM: z.preprocess(blankAsUndefined, z.string().default('Traffic School <no-reply@example.com>')),
    SUPPORT_EMAIL: z.preprocess(blankAsUndefined, z.string().default('support@example.com')),
    SCHOOL_NAME: z.preprocess(blankAsUndefined, z.string().default('Safe Roads Traffic School')),
    COURSE_PRICE_CENTS: z.preprocess(blankAsUndefined, z.coerce.number().int().positive().default(2995)),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    VIDEO_BASE_URL: z.preprocess(blankAsUndefined, z.string().default('/videos')),
    LOG_LEVEL: z.preprocess(
      blankAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PUBLISHABLE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY together (or neither, for the test provider)',
      });
    }
    // Without the webhook secret a payment whose browser never came back would stay unfulfilled.
    if (env.NODE_ENV === 'production' && env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'is required in production when Stripe keys are set',
      });
    }
    if (env.ADMIN_PASSWORD !== undefined && env.ADMIN_PASSWORD.length < 12) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'must be at least 12 characters' });
    }
  });

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly secureCookies: boolean;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly admin: { readonly username: string; readonly email: string; readonly password: string | undefined };
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly supportEmail: string;
  readonly schoolName: string;
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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${String(e.PORT)}`;
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    admin: Object.freeze({ username: e.ADMIN_USERNAME, email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    schoolName: e.SCHOOL_NAME,
    coursePriceCents: e.COURSE_PRICE_CENTS,
    stripe: Object.freeze({
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    }),
    testPayments: !e.STRIPE_SECRET_KEY,
    videoBaseUrl: e.VIDEO_BASE_URL,
    logLevel: e.LOG_LEVEL,
  });
}

/** Settings for tests: everything at its default, quiet logs, and the caller's overrides. */
export function loadTestConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...overrides });
}
