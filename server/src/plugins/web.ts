import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ErrorBody, PublicConfig } from '@ts/contract';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built React app: files from web/dist, and index.html for every other GET that is
 * not under /api, so deep links such as /content/2/7 work on reload. An unknown /api path is a
 * JSON 404, never the HTML.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | null, page: AppPage | null): Promise<void> {
  if (webDist !== null && page !== null) {
    const assetsDir = path.join(path.resolve(webDist), 'assets') + path.sep;
    // preCompressed: the build wrote .br and .gz copies (web/vite-precompress.ts); the browser
    // gets the smallest it accepts, and the original when it accepts neither.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Vite fingerprints asset names, so they can be cached for good. (Set here rather than in an
      // onSend hook, which every API answer would pass through.)
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assetsDir)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
      preCompressed: true,
      // The page itself is served with the school's name in it (below), never as the bare file.
      allowedPath: (pathName) => !pathName.startsWith('/index.html'),
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    // A missing file (an old asset name, a typo) is a 404, never the app page under its name.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    if (!isApi && !looksLikeFile && (request.method === 'GET' || request.method === 'HEAD') && page) {
      return sendAppPage(request, reply, page);
    }
    return reply
      .status(404)
      .send({ error: { code: 'NOT_FOUND', message: 'Not found.', requestId: request.id } } satisfies ErrorBody);
  });
}

export interface AppPage {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** The CSP source of each stylesheet written into the page ('sha256-…'), for style-src. */
  styleHashes: string[];
}

/** The built app page, or null when there is no build (the API alone, as in most tests). */
export function loadAppPage(webDist: string | null, publicConfig: PublicConfig): AppPage | null {
  if (webDist === null || !fs.existsSync(path.join(webDist, 'index.html'))) return null;
  return buildAppPage(webDist, publicConfig);
}

/** A built stylesheet link: its file's text goes into the page instead. */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g;

/** What the page shows before its script runs (web/index.html): the school's name, in place of this. */
const SCHOOL_NAME_SLOT = /<!--school-name-->[^<]*<!--\/school-name-->/g;

/**
 * index.html with the school's name (SCHOOL_NAME) in its title and its first paint, and the
 * public configuration as a JSON block the script reads at start (the school's name, time zone
 * and price without a call first), with its compressed copies, made once at start (decision 020):
 * a phone shows the school and a loading line before the script arrives.
 */
function buildAppPage(webDist: string, publicConfig: PublicConfig): AppPage {
  const name = escapeHtml(publicConfig.schoolName);
  // A data block, never run (the CSP allows no inline script); "<" is escaped so no text in it
  // can close the element.
  const configBlock = `<script type="application/json" id="public-config">${JSON.stringify(publicConfig).replace(/</g, '\\u003c')}</script>`;
  const html = fs
    .readFileSync(path.join(webDist, 'index.html'), 'utf8')
    .replace(/<title>[^<]*<\/title>/, `<title>${name}</title>`)
    .replace(SCHOOL_NAME_SLOT, name)
    .replace('</head>', `    ${configBlock}\n  </head>`);
  // The stylesheet is written into the page (decision 021): the first paint then waits for the page
  // alone, not for a second request on a slow phone. The CSP admits exactly this text by its hash.
  const styleHashes: string[] = [];
  const inlined = html.replace(STYLESHEET_LINK, (_link, file: string) => {
    const css = fs.readFileSync(path.join(webDist, file), 'utf8').replace(/<\/style/gi, '<\\/style');
    styleHashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    return `<style>${css}</style>`;
  });
  const raw = Buffer.from(inlined);
  return { raw, br: brotliCompressSync(raw), gzip: gzipSync(raw, { level: 9 }), styleHashes };
}

function sendAppPage(request: FastifyRequest, reply: FastifyReply, page: AppPage): FastifyReply {
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding');
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (accepted.has('br')) return reply.header('content-encoding', 'br').send(page.br);
  if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.raw);
}

/** The encodings an Accept-Encoding header allows (a q=0 refuses one). */
function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${String(character.charCodeAt(0))};`);
}
