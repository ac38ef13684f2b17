import { defineConfig, devices } from '@playwright/test';

/** E2E_PORT lets a second browser run share the machine (a clean-clone check beside a working tree). */
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { username: 'e2e-admin', email: 'e2e-admin@school.example', password: 'e2e-admin-password-1' };

/**
 * End-to-end tests drive the system Chromium (no browser download works here) against the real
 * server on a fresh embedded database, started the way `npm start` starts it, on a copy of the
 * content with one court under a profile of minutes (e2e/support/server.ts, decision 013).
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: '.tmp/test-results',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'list' : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${String(PORT)}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'rm -rf .tmp/e2e-data && npx tsx e2e/support/server.ts',
    url: `http://localhost:${String(PORT)}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: '.tmp/e2e-data',
      DATABASE_URL: '',
      // The browser suite runs the server as `npm start` does; the integration suite is the one run
      // once with CACHING=off (.ci/run, decision 054).
      CACHING: 'on',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SUPPORT_EMAIL: 'help@school.example',
      LOG_LEVEL: 'warn',
    },
  },
});
