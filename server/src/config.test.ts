import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadTestConfig } from './config.ts';

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
      admin: { username: 'admin', email: 'admin@example.com', password: undefined },
      smtpUrl: undefined,
      mailFrom: 'Traffic School <no-reply@example.com>',
      supportEmail: 'support@example.com',
      schoolName: 'Safe Roads Traffic School',
      coursePriceCents: 2995,
      stripe: { secretKey: undefined, publishableKey: undefined, webhookSecret: undefined },
      videoBaseUrl: '/videos',
      logLevel: 'info',
    });
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
      ADMIN_USERNAME: 'principal',
      ADMIN_EMAIL: 'principal@school.example',
      ADMIN_PASSWORD: 'a long enough secret',
      SMTP_URL: 'smtp://mail.example:587',
      MAIL_FROM: 'School <school@school.example>',
      SUPPORT_EMAIL: 'help@school.example',
      SCHOOL_NAME: 'Careful Drivers',
      COURSE_PRICE_CENTS: '4500',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      VIDEO_BASE_URL: 'https://videos.example',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://school.example',
      dataDir: '/var/lib/school',
      databaseUrl: 'postgres://db.example/school',
      admin: { username: 'principal', email: 'principal@school.example', password: 'a long enough secret' },
      smtpUrl: 'smtp://mail.example:587',
      mailFrom: 'School <school@school.example>',
      supportEmail: 'help@school.example',
      schoolName: 'Careful Drivers',
      coursePriceCents: 4500,
      stripe: { secretKey: 'sk_test_1', publishableKey: 'pk_test_1', webhookSecret: 'whsec_1' },
      videoBaseUrl: 'https://videos.example',
      logLevel: 'warn',
    });
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

  it.each(['0', '12.5', 'abc'])('refuses the course price %j', (price) => {
    expect(problemsOf({ COURSE_PRICE_CENTS: price })).toEqual([expect.stringMatching(/^COURSE_PRICE_CENTS: /)]);
  });
});

describe('loadTestConfig', () => {
  it('is quiet and in the test environment, with the caller’s overrides on top', () => {
    expect(loadTestConfig()).toMatchObject({ env: 'test', logLevel: 'silent', coursePriceCents: 2995 });
    expect(loadTestConfig({ COURSE_PRICE_CENTS: '4500', NODE_ENV: 'production' })).toMatchObject({
      env: 'production',
      coursePriceCents: 4500,
    });
  });
});
