import { describe, expect, it } from 'vitest';
import os from 'node:os';
import {
  ConfigError,
  defaultDatabasePoolSize,
  loadConfig,
  loadTestConfig,
  PRODUCTION_WITHOUT_SERVICES,
} from './config.ts';

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('loadConfig', () => {
  it('gives every variable the default the README promises when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      dataDir: './data',
      databaseUrl: undefined,
      databasePoolSize: Math.max(4, 2 * os.availableParallelism()),
      admin: { username: 'admin', email: 'admin@example.com', password: undefined },
      smtpUrl: undefined,
      mailFrom: 'Traffic School <no-reply@example.com>',
      supportEmail: 'support@example.com',
      schoolName: 'Safe Roads Traffic School',
      schoolAddress: '100 Example Street, Sacramento, CA 95814',
      schoolPhone: '(555) 010-0100',
      certificateSigner: { name: 'Alex Example', title: 'School Director' },
      coursePriceCents: 2995,
      stripe: { secretKey: undefined, publishableKey: undefined, webhookSecret: undefined },
      videoBaseUrl: '/videos',
      logLevel: 'info',
      caching: true,
    });
  });

  it('keeps nothing in memory with CACHING=off, and refuses any other word', () => {
    expect(loadConfig({ CACHING: 'off' }).caching).toBe(false);
    expect(problemsOf({ CACHING: 'no' })).toEqual([expect.stringContaining('CACHING')]);
  });

  it('treats a variable set to an empty string as unset', () => {
    const config = loadConfig({ PORT: '', DATA_DIR: '', COURSE_PRICE_CENTS: '', ADMIN_PASSWORD: '', SMTP_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('./data');
    expect(config.coursePriceCents).toBe(2995);
    expect(config.admin.password).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
  });

  it('reads every variable it is given, numbers as numbers', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://school.example',
      DATA_DIR: '/var/lib/school',
      DATABASE_URL: 'postgres://db.example/school',
      DATABASE_POOL_SIZE: '6',
      ADMIN_USERNAME: 'principal',
      ADMIN_EMAIL: 'principal@school.example',
      ADMIN_PASSWORD: 'a long enough secret',
      SMTP_URL: 'smtp://mail.example:587',
      MAIL_FROM: 'School <school@school.example>',
      SUPPORT_EMAIL: 'help@school.example',
      SCHOOL_NAME: 'Careful Drivers',
      SCHOOL_ADDRESS: '48 Main Street, Fresno, CA 93721',
      SCHOOL_PHONE: '(559) 555-0199',
      CERTIFICATE_SIGNER: 'Dana Whitfield|Director',
      COURSE_PRICE_CENTS: '4500',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      ALLOW_TEST_PAYMENTS: 'true',
      VIDEO_BASE_URL: 'https://videos.example',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://school.example',
      dataDir: '/var/lib/school',
      databaseUrl: 'postgres://db.example/school',
      databasePoolSize: 6,
      admin: { username: 'principal', email: 'principal@school.example', password: 'a long enough secret' },
      smtpUrl: 'smtp://mail.example:587',
      mailFrom: 'School <school@school.example>',
      supportEmail: 'help@school.example',
      schoolName: 'Careful Drivers',
      schoolAddress: '48 Main Street, Fresno, CA 93721',
      schoolPhone: '(559) 555-0199',
      certificateSigner: { name: 'Dana Whitfield', title: 'Director' },
      coursePriceCents: 4500,
      stripe: { secretKey: 'sk_test_1', publishableKey: 'pk_test_1', webhookSecret: 'whsec_1' },
      videoBaseUrl: 'https://videos.example',
      trustProxy: 2,
      logLevel: 'warn',
    });
  });

  it('keeps twice the cores in PostgreSQL connections per instance, at least 4, unless told', () => {
    expect([1, 2, 3, 8].map((cores) => defaultDatabasePoolSize(cores))).toEqual([4, 4, 6, 16]);
    expect(problemsOf({ DATABASE_POOL_SIZE: '0' })[0]).toMatch(/^DATABASE_POOL_SIZE:/);
    expect(problemsOf({ DATABASE_POOL_SIZE: 'many' })[0]).toMatch(/^DATABASE_POOL_SIZE:/);
  });

  it('derives the public address from the port when PUBLIC_URL is not set', () => {
    expect(loadConfig({ PORT: '8123' }).publicUrl).toBe('http://localhost:8123');
  });

  it('sends cookies only over https when PUBLIC_URL is https', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://school.example' }).secureCookies).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://school.example' }).secureCookies).toBe(false);
  });

  it('returns a frozen object that nothing can change later', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.admin)).toBe(true);
    expect(Object.isFrozen(config.stripe)).toBe(true);
  });

  it('refuses a bad value with a ConfigError that names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(problemsOf({ PORT: 'eighty' })).toEqual([expect.stringMatching(/^PORT: /)]);
  });

  it('lists every problem at once, not only the first', () => {
    const problems = problemsOf({
      PORT: '70000',
      PUBLIC_URL: 'not a url',
      COURSE_PRICE_CENTS: '-5',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'staging',
    });
    const variables = problems.map((problem) => problem.split(':')[0]).sort();
    expect(variables).toEqual(['COURSE_PRICE_CENTS', 'LOG_LEVEL', 'NODE_ENV', 'PORT', 'PUBLIC_URL']);
  });

  it('reports a short ADMIN_PASSWORD together with the other problems, not only once they are fixed', () => {
    const problems = problemsOf({ PORT: 'eighty', ADMIN_PASSWORD: 'short' });
    expect(problems).toContain('ADMIN_PASSWORD: must be at least 12 characters');
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^PORT: /)]));
  });

  it('puts every problem in the message printed at start', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' });
      expect.unreachable('the configuration was accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- PORT: .+\n {2}- LOG_LEVEL: .+$/);
    }
  });

  it('refuses an ADMIN_PASSWORD shorter than 12 characters and accepts one of 12', () => {
    expect(problemsOf({ ADMIN_PASSWORD: 'elevenchars' })).toEqual(['ADMIN_PASSWORD: must be at least 12 characters']);
    expect(loadConfig({ ADMIN_PASSWORD: 'twelve chars' }).admin.password).toBe('twelve chars');
  });

  it('has no metrics token unless METRICS_TOKEN is set, and refuses one shorter than 16 characters (decision 060)', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(problemsOf({ METRICS_TOKEN: 'fifteen-chars-x' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
    expect(loadConfig({ METRICS_TOKEN: 'sixteen-chars-xy' }).metricsToken).toBe('sixteen-chars-xy');
  });

  it('reads CERTIFICATE_SIGNER as the name, then | and the title, which may be left out (decision 062)', () => {
    expect(loadConfig({ CERTIFICATE_SIGNER: ' Maria Lopez | School Director ' }).certificateSigner).toEqual({
      name: 'Maria Lopez',
      title: 'School Director',
    });
    expect(loadConfig({ CERTIFICATE_SIGNER: 'Maria Lopez' }).certificateSigner).toEqual({
      name: 'Maria Lopez',
      title: '',
    });
    expect(problemsOf({ CERTIFICATE_SIGNER: '|School Director' })).toEqual([
      expect.stringMatching(/^CERTIFICATE_SIGNER: /),
    ]);
    expect(problemsOf({ CERTIFICATE_SIGNER: 'Maria|Lopez|Director' })).toEqual([
      expect.stringMatching(/^CERTIFICATE_SIGNER: /),
    ]);
  });

  it.each(['0', '12.5', 'abc'])('refuses the course price %j', (price) => {
    expect(problemsOf({ COURSE_PRICE_CENTS: price })).toEqual([expect.stringMatching(/^COURSE_PRICE_CENTS: /)]);
  });
});

describe('a production start (decision 016)', () => {
  const LIVE = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://school.example',
    TRUST_PROXY: '1',
    SMTP_URL: 'smtp://mail.example:587',
    STRIPE_SECRET_KEY: 'sk_live_1',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_1',
    STRIPE_WEBHOOK_SECRET: 'whsec_1',
    SCHOOL_ADDRESS: '2200 Harbor Boulevard, Suite 140, Costa Mesa, CA 92626',
    SCHOOL_PHONE: '(714) 555-0142',
    CERTIFICATE_SIGNER: 'Maria Lopez|School Director',
  };
  const without = (...names: (keyof typeof LIVE)[]) =>
    Object.fromEntries(Object.entries(LIVE).filter(([name]) => !names.includes(name as keyof typeof LIVE)));

  it('starts with live Stripe keys, an SMTP server and an https address', () => {
    expect(loadConfig(LIVE)).toMatchObject({ env: 'production', testPayments: false, secureCookies: true });
  });

  it('refuses to start without Stripe keys, naming the variables to set and the flag that allows it', () => {
    const problems = problemsOf(without('STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'));
    expect(problems).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: .*STRIPE_PUBLISHABLE_KEY.*ALLOW_TEST_PAYMENTS=true/),
    ]);
  });

  it('refuses Stripe test keys (sk_test_), which take no real money', () => {
    const problems = problemsOf({ ...LIVE, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' });
    expect(problems).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY: is a test key/)]);
  });

  it('refuses to start without SMTP_URL, since mail would stay in the outbox folder', () => {
    expect(problemsOf(without('SMTP_URL'))).toEqual([expect.stringMatching(/^SMTP_URL: .*ALLOW_MAIL_OUTBOX=true/)]);
  });

  it('refuses a PUBLIC_URL that is not https, or none at all', () => {
    expect(problemsOf({ ...LIVE, PUBLIC_URL: 'http://school.example' })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: .*ALLOW_HTTP=true/),
    ]);
    expect(problemsOf(without('PUBLIC_URL'))).toEqual([expect.stringMatching(/^PUBLIC_URL: /)]);
  });

  it('asks for TRUST_PROXY behind the https proxy, since without it every client shares the proxy’s throttle', () => {
    expect(problemsOf(without('TRUST_PROXY'))).toEqual([expect.stringMatching(/^TRUST_PROXY: .*usually 1/)]);
    expect(loadConfig({ ...LIVE, TRUST_PROXY: '0' }).trustProxy).toBe(0);
  });

  it('takes PUBLIC_URL as an origin: a trailing slash dropped, a path, query or fragment refused', () => {
    expect(loadConfig({ ...LIVE, PUBLIC_URL: 'https://school.example/' }).publicUrl).toBe('https://school.example');
    for (const address of [
      'https://school.example/school',
      'https://school.example/?a=1',
      'https://school.example/#x',
    ]) {
      expect(problemsOf({ ...LIVE, PUBLIC_URL: address })).toEqual([
        expect.stringMatching(/^PUBLIC_URL: must be an origin/),
      ]);
    }
  });

  it('refuses to print the example address, phone or signer on real certificates (decision 062)', () => {
    expect(problemsOf(without('SCHOOL_ADDRESS', 'SCHOOL_PHONE', 'CERTIFICATE_SIGNER'))).toEqual([
      expect.stringMatching(/^SCHOOL_ADDRESS: is required in production/),
      expect.stringMatching(/^SCHOOL_PHONE: is required in production/),
      expect.stringMatching(/^CERTIFICATE_SIGNER: is required in production/),
    ]);
    expect(loadConfig(LIVE)).toMatchObject({
      schoolAddress: '2200 Harbor Boulevard, Suite 140, Costa Mesa, CA 92626',
      schoolPhone: '(714) 555-0142',
      certificateSigner: { name: 'Maria Lopez', title: 'School Director' },
    });
  });

  it('lists every problem at once for a production start with no settings', () => {
    const variables = problemsOf({ NODE_ENV: 'production' }).map((problem) => problem.split(':')[0]);
    expect(variables).toEqual([
      'STRIPE_SECRET_KEY',
      'SMTP_URL',
      'PUBLIC_URL',
      'SCHOOL_ADDRESS',
      'SCHOOL_PHONE',
      'CERTIFICATE_SIGNER',
    ]);
  });

  it('lets each through when its own flag is true, and only that one', () => {
    expect(() => loadConfig({ ...PRODUCTION_WITHOUT_SERVICES })).not.toThrow();
    const variables = problemsOf({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' }).map(
      (problem) => problem.split(':')[0],
    );
    expect(variables).toEqual(['SMTP_URL', 'PUBLIC_URL', 'SCHOOL_ADDRESS', 'SCHOOL_PHONE', 'CERTIFICATE_SIGNER']);
  });

  it('does not take "yes" or "1" for a flag, so a typo cannot open a hole', () => {
    const variables = problemsOf({ ...without('SMTP_URL'), ALLOW_MAIL_OUTBOX: 'yes' }).map(
      (problem) => problem.split(':')[0],
    );
    expect(variables).toEqual(['ALLOW_MAIL_OUTBOX', 'SMTP_URL']);
  });

  it('asks nothing of a development start with no settings at all', () => {
    expect(() => loadConfig({})).not.toThrow();
    expect(loadConfig({}).testPayments).toBe(true);
  });
});

describe('loadTestConfig', () => {
  it('is quiet and in the test environment, with the caller’s overrides on top', () => {
    expect(loadTestConfig()).toMatchObject({ env: 'test', logLevel: 'silent', coursePriceCents: 2995 });
    expect(loadTestConfig({ COURSE_PRICE_CENTS: '4500', ...PRODUCTION_WITHOUT_SERVICES })).toMatchObject({
      env: 'production',
      coursePriceCents: 4500,
    });
  });
});
