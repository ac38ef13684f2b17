import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { CONTENT_DIR } from '../db/content-files.ts';

/**
 * Serves the course videos from content/videos when VIDEO_BASE_URL is a path on this server
 * (the default, /videos). An absolute URL means a CDN or bucket serves them instead.
 */
export async function registerVideos(app: FastifyInstance, videoBaseUrl: string): Promise<void> {
  if (!videoBaseUrl.startsWith('/')) return;
  await app.register(fastifyStatic, {
    root: path.join(CONTENT_DIR, 'videos'),
    prefix: `${videoBaseUrl.replace(/\/$/, '')}/`,
    decorateReply: false,
    wildcard: true,
    index: false,
    maxAge: '1d',
  });
}
