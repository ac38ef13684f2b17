import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';

/**
 * As web/index.html has it: the school's name in the title and in the first paint; as served,
 * also the public configuration as a JSON block at the end of the head.
 */
const pageWith = (schoolName: string, head = '') =>
  `<!doctype html><html><head><title>${schoolName}</title>${head}</head><body><div id="root"><p>${schoolName}</p></div></body></html>`;
const INDEX_HTML = pageWith('<!--school-name-->Traffic School<!--/school-name-->').replace(
  '<title><!--school-name-->Traffic School<!--/school-name--></title>',
  '<title>Traffic School</title>',
);
/** The JSON block the server writes in: `json` is the configuration as text, "<" escaped. */
const configBlock = (json: string) => `    <script type="application/json" id="public-config">${json}</script>\n  `;
/** What the server sends under the default SCHOOL_NAME (its configuration filled in beforeAll). */
let PAGE = '';
const APP_JS = 'console.log("the app");';
const JSON_404 = { error: { code: 'NOT_FOUND', message: 'Not found.', requestId: expect.any(String) as string } };

/** A stand-in for web/dist: index.html, one fingerprinted asset, and a secret just outside it. */
function makeWebBuild(): { root: string; webDist: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'web-build-'));
  const webDist = path.join(root, 'dist');
  fs.mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), APP_JS);
  // What the build's precompress step writes beside each text file (web/vite-precompress.ts).
  for (const [file, content] of [
    ['index.html', INDEX_HTML],
    [path.join('assets', 'app.js'), APP_JS],
  ] as const) {
    fs.writeFileSync(path.join(webDist, `${file}.br`), brotliCompressSync(content));
    fs.writeFileSync(path.join(webDist, `${file}.gz`), gzipSync(content));
  }
  fs.writeFileSync(path.join(root, 'secret.txt'), 'outside the build');
  return { root, webDist };
}

describe('serving the web app', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    const build = makeWebBuild();
    root = build.root;
    t = await buildTestApp({ webDist: build.webDist });
    const config = (await t.app.inject({ method: 'GET', url: '/api/public/config' })).body;
    PAGE = pageWith('Safe Roads Traffic School', configBlock(config));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it.each(['/', '/login', '/content/2/7', '/admin/students/12', '/quiz/3?retry=1', '/final-exam'])(
    'serves index.html for the deep link %s, so a reload works',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(PAGE);
    },
  );

  it('answers HEAD for a deep link like GET, without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/content/1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toBe('');
  });

  it('serves a built asset with a cache-control that keeps it for good', async () => {
    const response = await get('/assets/app.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(APP_JS);
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip', 'gzip'],
  ] as const)(
    'sends the precompressed copy a browser accepting %s takes, for assets and for the page',
    async (accepted, encoding) => {
      for (const [url, original] of [
        ['/assets/app.js', APP_JS],
        ['/content/2/7', PAGE],
      ] as const) {
        const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accepted } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBe(encoding);
        expect(response.headers.vary, url).toContain('accept-encoding');
        const body = encoding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
        expect(body.toString(), url).toBe(original);
      }
    },
  );

  it('sends the file as it is to a client that accepts no compression', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(APP_JS);
  });

  it("writes the school's name, escaped, into the page's title and first paint, and its configuration into a JSON block no text can close", async () => {
    const build = makeWebBuild();
    const other = await buildTestApp({
      webDist: build.webDist,
      config: { SCHOOL_NAME: 'Sun & Safe <Driving> School' },
    });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/login' });
      const config = (await other.app.inject({ method: 'GET', url: '/api/public/config' })).json<{
        schoolName: string;
      }>();
      expect(config.schoolName).toBe('Sun & Safe <Driving> School');
      const json = JSON.stringify(config).replace(/</g, '\\u003c');
      expect(json).toContain('Sun & Safe \\u003cDriving> School');
      expect(response.body).toBe(pageWith('Sun &#38; Safe &#60;Driving&#62; School', configBlock(json)));
      // The bare file, with its placeholders, is never served.
      expect((await other.app.inject({ method: 'GET', url: '/index.html' })).statusCode).toBe(404);
    } finally {
      await other.close();
      fs.rmSync(build.root, { recursive: true, force: true });
    }
  });

  it('writes the built stylesheet into the page and admits exactly it in the CSP by its hash', async () => {
    const build = makeWebBuild();
    const css = 'body{color:#0f172a}';
    fs.writeFileSync(path.join(build.webDist, 'assets', 'app-1a2b.css'), css);
    fs.writeFileSync(
      path.join(build.webDist, 'index.html'),
      INDEX_HTML.replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/app-1a2b.css"></head>'),
    );
    const other = await buildTestApp({ webDist: build.webDist });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/login' });
      expect(response.body).toContain(`<style>${css}</style>`);
      expect(response.body).not.toContain('rel="stylesheet"');
      const hash = createHash('sha256').update(css).digest('base64');
      expect(response.headers['content-security-policy']).toContain(`style-src 'self' 'sha256-${hash}'`);
    } finally {
      await other.close();
      fs.rmSync(build.root, { recursive: true, force: true });
    }
  });

  it('does not answer a missing asset with index.html cached for good', async () => {
    // After a deploy an old page may ask for an asset that is gone: caching HTML under that name forever breaks it.
    const response = await get('/assets/app-old123.js');
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control'] ?? '').not.toContain('immutable');
  });

  it('answers an unknown /api path with a JSON 404, never the HTML', async () => {
    for (const url of ['/api/no-such-call', '/api/content/chapters/extra/parts', '/api']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toContain('application/json');
      expect(response.json(), url).toEqual(JSON_404);
    }
  });

  it('answers /api with a query string with a JSON 404 too', async () => {
    const response = await get('/api?debug=1');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(JSON_404);
  });

  it('answers a POST to an unknown page with a JSON 404, not the HTML', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/content/2/7', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(JSON_404);
  });

  it('does not serve files from outside the build', async () => {
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const response = await get(url);
      expect(response.body, url).not.toContain('outside the build');
    }
  });

  it('sends the security headers with the page', async () => {
    const response = await get('/content/2/7');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('sends the security headers with API answers too', async () => {
    const response = await get('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaves the API’s answers to the API’s own rule: not kept (decision 045), never the app’s long caching', async () => {
    const response = await get('/api/public/courts');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('a server without a web build (API only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ webDist: path.join(os.tmpdir(), 'no-such-web-build') });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a page with a JSON 404 instead of failing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/content/2/7' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(JSON_404);
  });
});
