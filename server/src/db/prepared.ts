import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { type Db, dropQueryParsers, runsOnPglite } from './client.ts';

const built = new WeakMap<Db, Map<string, unknown>>();
/** Per name, the query as first built in a transaction on PostgreSQL (prepareInTransaction). */
const builtForTransactions = new Map<string, object>();

/**
 * A query of the hot path (issue 15), built once and prepared under `name`: drizzle's query
 * building costs more than a primary-key lookup itself, and PostgreSQL then plans it once per
 * connection. Built once per database, and on PostgreSQL once for every transaction too
 * (prepareInTransaction); on PGlite once per transaction. PGlite keeps no prepared statement, so
 * there the query is moved into a function whose plan PL/pgSQL keeps (keepPlanOnPglite).
 */
export function prepareOnce<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
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
      if (!(db instanceof PgTransaction)) keepPlanOnPglite(name, query);
    }
  }
  return query;
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

/** The moves into functions under way (keepPlanOnPglite). */
const moves = new Set<Promise<void>>();

/** Resolves once every move of a PGlite query into its function so far is done (or given up). */
export async function keptPlansSettled(): Promise<void> {
  await Promise.all([...moves]);
}

/** What keepPlanOnPglite uses of drizzle's PGlite prepared query (its own fields, not typed). */
interface PglitePrepared {
  client: PGlite;
  queryString: string;
  params: unknown[];
  fields?: unknown;
}

/**
 * PGlite parses and plans every query it is sent; a query inside a PL/pgSQL function is planned
 * once per session (the session lookup measured 412 us sent, 218 us in a function, migration 0019).
 * So on PGlite a hot query becomes a session-temporary function of the same SQL, its parameter and
 * column types as PostgreSQL itself infers them for a PREPARE, and the prepared query then calls
 * it (same parameters, same columns in the same order, so drizzle maps the rows as before). Done
 * in the background at first use; until then, or if PostgreSQL cannot type it, the query is sent
 * as it is. Only for queries whose rows drizzle maps by position.
 */
function keepPlanOnPglite(name: string, query: unknown): void {
  const prepared = query as Partial<PglitePrepared>;
  if (!prepared.client || typeof prepared.queryString !== 'string' || !prepared.fields) return;
  const { client, queryString } = prepared;
  const suffix = `${name.replace(/\W/g, '_')}_${createHash('sha1').update(queryString).digest('hex').slice(0, 10)}`;
  const moving = moveIntoFunction(client, suffix, queryString).then(
    (call) => {
      if (call) prepared.queryString = call;
    },
    // Not typed (a parameter PostgreSQL cannot infer), or the database closed first: sent as it is.
    () => undefined,
  );
  moves.add(moving);
  void moving.finally(() => moves.delete(moving));
}

async function moveIntoFunction(client: PGlite, suffix: string, sqlText: string): Promise<string | undefined> {
  const probe = `probe_${suffix}`;
  await client.exec(`PREPARE ${probe} AS ${sqlText}`);
  const { rows } = await client.query<{ parameters: string[]; results: string[] }>(
    `SELECT parameter_types::text[] AS parameters, result_types::text[] AS results
     FROM pg_prepared_statements WHERE name = $1`,
    [probe],
  );
  await client.exec(`DEALLOCATE ${probe}`);
  const [types] = rows;
  if (!types || types.parameters.includes('unknown') || types.results.some((type) => type === 'unknown'))
    return undefined;
  const columns = types.results.map((type, index) => `c${String(index + 1)} ${type}`).join(', ');
  const parameters = types.parameters.join(', ');
  // $1..$n in the body are the function's parameters; output columns are named c1..cn so no
  // column of the query is mistaken for one.
  await client.exec(`CREATE OR REPLACE FUNCTION pg_temp.hot_${suffix}(${parameters}) RETURNS TABLE (${columns})
    LANGUAGE plpgsql AS $hot$ BEGIN RETURN QUERY ${sqlText}; END $hot$`);
  const placeholders = types.parameters.map((_, index) => `$${String(index + 1)}`).join(', ');
  return `SELECT * FROM pg_temp.hot_${suffix}(${placeholders})`;
}
