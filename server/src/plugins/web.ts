import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@ts/contract';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built React app: files from web/dist, and index.html for every other GET that is
 * not under /api, so deep links such as /content/2/7 work on reload. An unknown /api path is a
 * JSON 404, never the HTML.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | null): Promise<void> {
  const hasBuild = webDist !== null && fs.existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    // preCompressed: the build wrote .br and .gz copies (web/vite-precompress.ts); the browser
    // gets the smallest it accepts, and the original when it accepts neither.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    // A missing file (an old asset name, a typo) is a 404, never the app page under its name.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    if (!isApi && !looksLikeFile && (request.method === 'GET' || request.method === 'HEAD') && hasBuild) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'Not found.' } } satisfies ErrorBody);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // Vite fingerprints asset names, so they can be cached for good.
    if (request.url.startsWith('/assets/') && reply.statusCode === 200) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    return payload;
  });
}
