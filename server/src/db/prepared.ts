import { PGlite } from '@electric-sql/pglite';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { type Db, dropQueryParsers, runsOnPglite } from './client.ts';
import { namedStatementClient } from './pglite-statements.ts';
import { sendAsNewCall } from './pool-queue.ts';

const built = new WeakMap<Db, Map<string, unknown>>();
/** Per name, the query as first built in a transaction on PostgreSQL (prepareInTransaction). */
const builtForTransactions = new Map<string, object>();

/**
 * A query of the hot path (issue 15), built once and prepared under `name`: drizzle's query
 * building costs more than a primary-key lookup itself, and PostgreSQL then plans it once per
 * connection. Built once per database, and on PostgreSQL once for every transaction too
 * (prepareInTransaction); on PGlite once per transaction. On PGlite, where drizzle's prepared
 * query is sent as an unnamed statement, planned at every use, it is sent as a named statement
 * instead (sendAsNamedStatement).
 *
 * `opensCall`: the query is the first statement of a call (the session lookup, a public call's
 * first read), which on PostgreSQL waits behind the statements of calls under way (decision 034).
 */
export function prepareOnce<Q>(db: Db, name: string, build: (db: Db) => Q, options: PrepareOptions = {}): Q {
  const session = transactionSession(db);
  if (session !== undefined) return prepareInTransaction(session, name, () => build(db));
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
    if (runsOnPglite(db)) {
      dropQueryParsers(query);
      sendAsNamedStatement(query);
    } else if (options.opensCall) {
      sendAsNewCall(query);
    }
  }
  return query;
}

export interface PrepareOptions {
  /** The first statement of a call: queued behind calls under way on PostgreSQL (decision 034). */
  opensCall?: boolean;
}

/**
 * A transaction's copy of a prepared query (issue 15: a registration and a sign-in run
 * theirs in a transaction, each a new one): the query's text, parameters and row mapping are the
 * same in every transaction, so it is built in the first and each later one takes a copy that
 * sends it on its own connection, with its own session's logger and cache (drizzle's prepared
 * query keeps them as `client`, `logger` and `cache`).
 */
function prepareInTransaction<Q>(session: TransactionSession, name: string, build: () => Q): Q {
  const template = builtForTransactions.get(name);
  if (template === undefined) {
    const query = build();
    if (typeof query !== 'object' || query === null || !('client' in query)) {
      throw new Error(`prepareOnce("${name}"): not a prepared query`);
    }
    builtForTransactions.set(name, query);
    return query;
  }
  return Object.assign(Object.create(Object.getPrototypeOf(template) as object) as object, template, session) as Q;
}

/** What a copy of a prepared query takes from the transaction it runs in. */
interface TransactionSession {
  client: unknown;
  logger: unknown;
  cache: unknown;
}

/** The connection, logger and cache of a transaction on PostgreSQL, or undefined (the database itself, or PGlite). */
function transactionSession(db: Db): TransactionSession | undefined {
  if (!(db instanceof PgTransaction)) return undefined;
  const session: unknown = db._.session;
  if (!(session instanceof NodePgSession)) return undefined;
  // drizzle keeps the transaction's connection, logger and cache in its session (not in its typings).
  const fields: object = session;
  if (!('client' in fields && 'logger' in fields && 'cache' in fields)) return undefined;
  return { client: fields.client, logger: fields.logger, cache: fields.cache };
}

/**
 * On PGlite, a hot query outside a transaction is sent as a named statement PGlite keeps
 * (db/pglite-statements.ts): drizzle's prepared query calls `client.query`, so its client is
 * swapped for one that binds and executes the kept statement. Does nothing to anything else: a
 * query in a PGlite transaction has the transaction as its client (whose queries must not take
 * the exclusive section namedStatementClient takes), a query on PostgreSQL a pool or connection.
 */
export function sendAsNamedStatement(query: unknown): void {
  if (typeof query !== 'object' || query === null || !('client' in query)) return;
  if (query.client instanceof PGlite) Object.assign(query, { client: namedStatementClient(query.client) });
}
