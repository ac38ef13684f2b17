import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { makePrivateDir, restrictTreeToOwner } from '../platform/private-files.ts';
import { listenOnConnection, listenOnPglite } from './content-version.ts';
import { LeanClient } from './lean-statements.ts';
import { orderQueueByCall } from './pool-queue.ts';
import * as schema from './schema.ts';

/** Whether this database is the embedded PGlite (a plain boolean, so callers keep the Db type). */
export function runsOnPglite(db: Db): boolean {
  return db instanceof PgliteDatabase;
}

/** Drizzle over either driver: the same queries run on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** A lost connection is the statement's error to report, not the process's: see openPostgres. */
function ignoreConnectionError(): void {}

/** `max`: the most connections the pool opens (the server passes DATABASE_POOL_SIZE; node-postgres' 10 otherwise). */
export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const pool: pg.Pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    Client: LeanClient,
    onConnect: (connection) => {
      // A connection the server ends (a restart, a failover: pg_terminate_backend) while it is
      // checked out, between two statements of a transaction or listening, emits 'error' on the
      // client itself: pg-pool listens only while a connection is idle, and an 'error' nobody
      // listens to ends the process. The statement using it fails on its own (the connection is
      // no longer queryable), and the pool discards it when it is released.
      connection.on('error', ignoreConnectionError);
      // Every connection hears the course content's version before its first use (decision 038).
      return listenOnConnection(pool, connection);
    },
  });
  orderQueueByCall(pool);
  // An idle connection the server closes is dropped by the pool, and the next query opens a new one.
  pool.on('error', ignoreConnectionError);
  const db = drizzlePg({ client: pool, schema });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/** Types whose text drizzle's PGlite driver keeps as text (drizzle maps them itself). */
const TEXT_TYPES = [
  pgliteTypes.TIMESTAMP,
  pgliteTypes.TIMESTAMPTZ,
  pgliteTypes.INTERVAL,
  pgliteTypes.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];
const DRIZZLE_TEXT_PARSERS = Object.fromEntries(TEXT_TYPES.map((type) => [type, (value: string) => value]));

/**
 * Drizzle's PGlite driver hands every query the parsers above, and PGlite then copies its whole
 * parser table (over 300 types) into a new object for that query: a sixth of a heartbeat's time
 * on PGlite (issue 15). The client is opened with those parsers as its own (openPglite), so a
 * hot query built here can go without: the same rows, no copy. Does nothing on PostgreSQL.
 */
export function dropQueryParsers(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const configs = query as { queryConfig?: { parsers?: unknown }; rawQueryConfig?: { parsers?: unknown } };
  if (configs.queryConfig?.parsers) configs.queryConfig = { ...configs.queryConfig, parsers: undefined };
  if (configs.rawQueryConfig?.parsers) configs.rawQueryConfig = { ...configs.rawQueryConfig, parsers: undefined };
}

/**
 * dataDir: a folder for a persistent database (kept owner-only); dump: a PGlite dump to start
 * from, in memory (tests) or in a new dataDir (a restore); neither: an empty database in memory.
 */
export async function openPglite(source: { dataDir?: string; dump?: Blob } = {}): Promise<Database> {
  let client: PGlite;
  const options = { parsers: DRIZZLE_TEXT_PARSERS, ...(source.dump ? { loadDataDir: source.dump } : {}) };
  if (source.dataDir) {
    makePrivateDir(source.dataDir);
    client = await PGlite.create(source.dataDir, options);
    // PGlite writes a new database's files world-readable; the server's umask covers later ones.
    restrictTreeToOwner(source.dataDir);
  } else {
    client = await PGlite.create(options);
  }
  await listenOnPglite(client);
  const db = drizzlePglite({ client, schema });
  return { db, kind: 'pglite', close: () => client.close() };
}

/**
 * The whole embedded database as one file. Gzipped by default (backups); the test template is
 * kept uncompressed, which each test file loads about twice as fast.
 */
export async function dumpPglite(database: Database, compression: 'gzip' | 'none' = 'gzip'): Promise<Blob> {
  const { db } = database;
  // The drizzle PGlite driver keeps its client on $client.
  if (!(db instanceof PgliteDatabase && '$client' in db && db.$client instanceof PGlite)) {
    throw new Error('Only an embedded (PGlite) database can be dumped.');
  }
  return db.$client.dumpDataDir(compression);
}
