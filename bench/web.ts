/**
 * The web app's first visit (decision 020): the bytes of script a browser that accepts brotli
 * receives for a page (its own script and every module it preloads), and, unless
 * BENCH_LIGHTHOUSE=0, Lighthouse's mobile scores for /login, /register, /pay and / with the
 * system Chromium, the median of BENCH_LIGHTHOUSE_RUNS runs (3; Lighthouse comes from the npm
 * registry through npx). Serves the current web/dist: build it first (npm run build).
 *
 *   npm run bench:web
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import { loadConfig, PRODUCTION_WITHOUT_SERVICES } from '../server/src/config.ts';
import { openPglite } from '../server/src/db/client.ts';
import { migrateDatabase } from '../server/src/db/migrate.ts';
import { loadContent } from '../server/src/db/seed.ts';
import { systemClock } from '../server/src/platform/clock.ts';
import { createMailer } from '../server/src/platform/mail/mailer.ts';
import { createPaymentProvider } from '../server/src/platform/payments/index.ts';
import { WEB_DIST } from '../server/src/plugins/web.ts';

const PAGES = ['/login', '/register', '/pay', '/'];
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/** Each category's median score over the runs. */
function medianScores(runs: Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run)))];
  return Object.fromEntries(
    names.map((name) => {
      const scores = runs.map((run) => run[name] ?? 0).sort((a, b) => a - b);
      return [name, scores[Math.floor(scores.length / 2)] ?? 0];
    }),
  );
}

/** The body bytes of every script the page loads before it can run, as sent with brotli accepted. */
async function scriptBytes(base: string, page: string): Promise<{ total: number; files: [string, number][] }> {
  const html = await (await fetch(`${base}${page}`, { headers: { 'accept-encoding': 'br, gzip' } })).text();
  const urls = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((match) => match[1] ?? '');
  const files: [string, number][] = [];
  for (const url of urls) {
    const response = await fetch(`${base}${url}`, { headers: { 'accept-encoding': 'br, gzip' } });
    // fetch decompresses the body: the length on the wire is the header's.
    const onWire = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength);
    files.push([url, onWire]);
  }
  return { total: files.reduce((sum, [, bytes]) => sum + bytes, 0), files };
}

async function lighthouse(url: string): Promise<Record<string, number>> {
  const output = path.join(os.tmpdir(), `lighthouse-${String(Date.now())}.json`);
  // Not spawnSync: the server answering Lighthouse runs in this process.
  const child = spawn(
    'npx',
    [
      '-y',
      'lighthouse@12',
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices',
      `--chrome-path=${CHROMIUM}`,
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: CHROMIUM } },
  );
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0 || !fs.existsSync(output)) return {};
  const report = JSON.parse(fs.readFileSync(output, 'utf8')) as {
    categories: Record<string, { score: number | null }>;
  };
  fs.rmSync(output, { force: true });
  return Object.fromEntries(
    Object.entries(report.categories).map(([name, category]) => [name, Math.round((category.score ?? 0) * 100)]),
  );
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('build the web app first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-bench-web-'));
  const database = await openPglite({ dataDir });
  await migrateDatabase(database);
  await loadContent(database.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...PRODUCTION_WITHOUT_SERVICES });
  const app = await buildApp({
    config,
    db: database.db,
    clock: systemClock,
    payments: createPaymentProvider(config, database.db, systemClock),
    mailer: createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') }),
    webDist: WEB_DIST,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${String(address.port)}`;
  try {
    for (const page of PAGES) {
      const { total, files } = await scriptBytes(base, page);
      console.log(
        `${page}: ${(total / 1000).toFixed(1)} kB of script on the wire (brotli), ${String(files.length)} files`,
      );
    }
    if (process.env.BENCH_LIGHTHOUSE !== '0') {
      console.log(`\nLighthouse 12, mobile (its default), median of ${String(RUNS)} runs:`);
      for (const page of PAGES) {
        const runs: Record<string, number>[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouse(`${base}${page}`));
        console.log(
          `${page}: ${JSON.stringify(medianScores(runs))} (runs: ${JSON.stringify(runs.map((r) => r.performance))})`,
        );
      }
    }
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
