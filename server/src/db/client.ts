import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { makePrivateDir, restrictTreeToOwner } from '../platform/private-files.ts';
import { listenOnConnection, listenOnPglite } from './content-version.ts';
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

/**
 * How long a call waits before it fails, and is answered 503 with Retry-After instead of hanging
 * (db/errors.ts, decision 061): `connectMs` for a new connection to be opened (a database that is
 * away fails here), `freeConnectionMs` for a busy pool's free connection (a crowd of students at
 * once waits here while the database is well: it must not be taken for an outage), `statementMs`
 * for a statement's answer, long enough for the slowest report a staff page asks for. A dead
 * connection (a database host gone without closing its sockets) is also noticed by TCP keepalive.
 */
export const DATABASE_TIMEOUTS = { connectMs: 5_000, freeConnectionMs: 30_000, statementMs: 30_000 };

/**
 * `max`: the most connections the pool opens (the server passes DATABASE_POOL_SIZE; node-postgres'
 * 10 otherwise); `timeouts`: DATABASE_TIMEOUTS unless a test shortens them.
 */
export function openPostgres(
  url: string,
  options: { max?: number; timeouts?: Partial<typeof DATABASE_TIMEOUTS> } = {},
): Database {
  const timeouts = { ...DATABASE_TIMEOUTS, ...options.timeouts };
  // pg-pool's connectionTimeoutMillis bounds both the wait for a free connection and the opening
  // of a new one; the connection's own (pg's Client option, through pg-pool's documented custom
  // Client) gives up opening sooner, so only a database that is away fails fast.
  class ClientWithConnectTimeout extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
    }
  }
  const pool: pg.Pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    Client: ClientWithConnectTimeout,
    connectionTimeoutMillis: timeouts.freeConnectionMs,
    query_timeout: timeouts.statementMs,
    keepAlive: true,
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
  // An idle connection the server closes is dropped by the pool, and the next query opens a new one.
  pool.on('error', ignoreConnectionError);
  const db = drizzlePg({ client: pool, schema });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * dataDir: a folder for a persistent database (kept owner-only); dump: a PGlite dump to start
 * from, in memory (tests) or in a new dataDir (a restore); neither: an empty database in memory.
 */
export async function openPglite(source: { dataDir?: string; dump?: Blob } = {}): Promise<Database> {
  let client: PGlite;
  const options = source.dump ? { loadDataDir: source.dump } : {};
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
 * kept uncompressed, which each test file loads faster (bench/README.md, "Test suite time").
 */
export async function dumpPglite(database: Database, compression: 'gzip' | 'none' = 'gzip'): Promise<Blob> {
  const { db } = database;
  // The drizzle PGlite driver keeps its client on $client.
  if (!(db instanceof PgliteDatabase && '$client' in db && db.$client instanceof PGlite)) {
    throw new Error('Only an embedded (PGlite) database can be dumped.');
  }
  return db.$client.dumpDataDir(compression);
}
