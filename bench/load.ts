/**
 * autocannon run from a worker thread of its own, so the load generator is outside the server's
 * event loop, as clients from outside are: in the server's thread its request building and
 * response parsing were counted as the server's time, and its turns delayed the server's
 * (the speed goals in README.md are measured from outside, with autocannon; on PGlite, which
 * runs in the server's thread, the two shared one event loop).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';

/** One connection's own request: its headers (a student's cookie) and body. */
export interface LoadClient {
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Given to the connections in turn (connection n gets clients[n % length]). */
  clients?: LoadClient[];
}

const autocannonPath = createRequire(import.meta.url).resolve('autocannon');

/** Runs autocannon with these options in a worker thread and resolves with its result. */
export function runLoad(options: LoadOptions): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { autocannonPath, options } });
    worker.once('message', (result: autocannon.Result) => {
      resolve(result);
    });
    worker.once('error', reject);
  });
}

const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannonPath);
const { clients, ...options } = workerData.options;
let next = 0;
const setupClient = (client) => {
  const own = clients[next++ % clients.length];
  client.setHeaders(own.headers);
  if (own.body !== undefined) client.setBody(own.body);
};
const run = { ...options, ...(clients ? { setupClient } : {}) };
// Outside the main thread autocannon returns its histograms raw; aggregateResult is its own
// public step for workers' results (percentiles, averages).
autocannon(run).then((raw) => parentPort.postMessage(autocannon.aggregateResult([raw], run)));
`;
