import { type messages, parse, type PGlite, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * Named prepared statements on PGlite (issue 15, decision 033). PGlite's `query` sends every
 * query as PostgreSQL's unnamed statement, so each one is parsed, analysed and planned again, in
 * six calls into the WebAssembly engine. PGlite speaks the wire protocol itself, though, and keeps
 * a named statement for its one session like any PostgreSQL backend: a hot query is parsed and
 * described once (Parse, Describe), then each use is one call of Bind, Execute and Sync. The
 * heartbeat's read measured 0.20-0.31 ms as a PL/pgSQL function (the way before) and 0.09-0.10 ms
 * as a named statement; a primary-key lookup 0.14-0.16 ms sent as a query.
 */

/** What drizzle's PGlite prepared query calls on its client. */
export interface QueryClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/** A statement PGlite keeps: its name, its parameters' types and its rows' description. */
interface KeptStatement {
  name: string;
  parameterTypes: number[];
  /** Prepended to each execution's messages, whose Bind/Execute carry no row description of their own. */
  rowDescription: messages.BackendMessage | undefined;
}

/** Each PGlite's client, whose statements are kept per query text. */
const clients = new WeakMap<PGlite, QueryClient>();

/**
 * At most this many statements kept per database: the hot queries are a few dozen texts, so a
 * caller building texts without end (a list of values written into the text) cannot fill
 * PGlite's memory with statements; texts past it go as plain queries.
 */
const MOST_KEPT = 500;

/**
 * A client for drizzle's prepared query that sends each query text as a named statement of
 * `pglite`'s session, prepared at its first use. A text PostgreSQL cannot prepare on its own (a
 * parameter whose type it cannot infer) goes on as a plain query. Only for queries outside a
 * transaction: a transaction's queries go through PGlite's transaction object, and the exclusive
 * section taken here would wait for that very transaction to end.
 */
export function namedStatementClient(pglite: PGlite): QueryClient {
  let client = clients.get(pglite);
  if (!client) {
    /** Per query text: the statement kept for it, or undefined when PostgreSQL would not prepare it. */
    const kept = new Map<string, Promise<KeptStatement | undefined>>();
    client = {
      async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
        let statement = kept.get(text);
        if (!statement) {
          if (kept.size >= MOST_KEPT) return pglite.query<T>(text, params, options);
          statement = keepStatement(pglite, `named_${String(kept.size + 1)}`, text);
          kept.set(text, statement);
        }
        const ready = await statement;
        if (!ready) return pglite.query<T>(text, params, options);
        return executeKept<T>(pglite, ready, params, options);
      },
    };
    clients.set(pglite, client);
  }
  return client;
}

/**
 * Runs `work` as PGlite's own `query` does: no transaction open (the transaction mutex) and no
 * other statement under way (the query mutex). Without the first, a statement could run inside
 * another request's open transaction.
 */
function exclusively<T>(pglite: PGlite, work: () => Promise<T>): Promise<T> {
  return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(work));
}

async function keepStatement(pglite: PGlite, name: string, text: string): Promise<KeptStatement | undefined> {
  const { serialize } = protocol;
  const { messages } = await exclusively(pglite, () =>
    pglite.execProtocol(
      joinMessages([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { throwOnError: false },
    ),
  );
  if (messages.some((message) => message.name === 'error')) return undefined;
  const parameters = messages.find(
    (message): message is messages.ParameterDescriptionMessage => message.name === 'parameterDescription',
  );
  return {
    name,
    parameterTypes: parameters?.dataTypeIDs ?? [],
    rowDescription: messages.find((message) => message.name === 'rowDescription'),
  };
}

async function executeKept<T>(
  pglite: PGlite,
  statement: KeptStatement,
  params: unknown[],
  options: QueryOptions | undefined,
): Promise<Results<T>> {
  const { serialize } = protocol;
  // Parameters are written as PGlite's query writes them: by the type PostgreSQL gave each.
  const values = params.map((param, index) => {
    if (param === null || param === undefined) return null;
    const write = pglite.serializers[statement.parameterTypes[index] ?? 0];
    return write ? write(param) : String(param);
  });
  const { messages } = await exclusively(pglite, () =>
    pglite.execProtocol(
      joinMessages([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
    ),
  );
  const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  const [result] = parse.parseResults(described, pglite.parsers, options);
  return result as Results<T>;
}

function joinMessages(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
