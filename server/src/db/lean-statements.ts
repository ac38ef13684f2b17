import pg from 'pg';

/**
 * node-postgres spends two avoidable costs on every execution of a named statement (issue 15):
 * it copies the query's config through property descriptors (`normalizeQueryConfig`, about
 * 2 µs), and, since it asks for the statement's row description each time, rebuilds the row's
 * parsers and an empty row from it (`Result#addFields`: about 5 µs for twenty columns, with the
 * garbage they leave). Together they were a seventh of a signed-in read's CPU on PostgreSQL.
 *
 * A named statement is sent here as a query object built without the copy,
 * whose result reuses the parsers of the statement's last row description when the new one has
 * the same columns of the same types (a migration that changes a row builds new ones). The
 * rows are node-postgres' own: the parsers and the row building are its code.
 */

/** A statement's parsers, for the row description and type parsers they were built from. */
interface KeptParsers {
  types: unknown;
  fields: pg.FieldDef[];
  parsers: unknown;
  emptyRow: unknown;
}

/** Per statement name: statement names are few (each a prepared query of the code), so this stays small. */
const keptParsers = new Map<string, KeptParsers>();

const sameColumns = (a: pg.FieldDef[], b: pg.FieldDef[]) =>
  a.length === b.length &&
  a.every(
    (field, index) =>
      field.name === b[index]?.name && field.dataTypeID === b[index].dataTypeID && field.format === b[index].format,
  );

/** node-postgres' own addFields (its typings leave it out); an upgrade that renamed it fails at startup. */
const ownAddFields: unknown = Reflect.get(pg.Result.prototype, 'addFields');
if (typeof ownAddFields !== 'function') {
  throw new Error("node-postgres' Result has no addFields where db/lean-statements.ts expects it");
}
const buildParsers = ownAddFields as (this: pg.Result, fields: pg.FieldDef[]) => void;

/** node-postgres' result of one execution; its parsers are kept per statement (`_parsers`, `_types` are its fields). */
class LeanResult extends pg.Result {
  declare _parsers: unknown;
  declare _types: unknown;
  declare _prebuiltEmptyResultObject: unknown;

  constructor(
    rowMode: string | undefined,
    types: typeof pg.types | undefined,
    private readonly statement: string,
  ) {
    // node-postgres reads an absent row mode and absent types as the defaults (its typings say otherwise).
    super(rowMode as string, types as typeof pg.types);
  }

  addFields(fields: pg.FieldDef[]): void {
    const kept = keptParsers.get(this.statement);
    if (kept && kept.types === this._types && sameColumns(kept.fields, fields)) {
      this.fields = fields;
      this._parsers = kept.parsers;
      // parseRow copies it into each row (object rows); never written to.
      this._prebuiltEmptyResultObject = kept.emptyRow;
      return;
    }
    buildParsers.call(this, fields);
    keptParsers.set(this.statement, {
      types: this._types,
      fields,
      parsers: this._parsers,
      emptyRow: this._prebuiltEmptyResultObject,
    });
  }
}

/** A named statement's execution, its config read field by field (node-postgres' own copy skipped). */
class LeanQuery extends pg.Query {
  declare name: string;
  declare values: unknown[];
  declare types: typeof pg.types | undefined;
  declare _rowMode: string | undefined;
  declare _result: pg.Result;
  declare _results: pg.Result;

  constructor(config: LeanConfig, values: unknown[]) {
    // Given text alone, node-postgres copies nothing; the rest is set as its constructor would.
    super(config.text);
    this.name = config.name;
    this.values = values;
    this.types = config.types as typeof pg.types | undefined;
    this._rowMode = config.rowMode;
    this._result = new LeanResult(config.rowMode, this.types, config.name);
    this._results = this._result;
  }
}

type LeanConfig = pg.QueryConfig & { name: string; text: string; rowMode?: string };

/** Whether a query is a named statement with its values and nothing else node-postgres would read. */
function isPlainNamedStatement(config: unknown, values: unknown): config is LeanConfig {
  if (!Array.isArray(values) || typeof config !== 'object' || config === null) return false;
  const { name, text } = config as { name?: unknown; text?: unknown };
  if (typeof name !== 'string' || name === '' || typeof text !== 'string') return false;
  // Only the fields drizzle's prepared queries carry: anything else (a cursor's rows, binary) goes as it came.
  return Object.keys(config).every((key) => key === 'name' || key === 'text' || key === 'types' || key === 'rowMode');
}

/**
 * node-postgres' client, sending its named statements as lean queries and anything else as it
 * came; the pool opens its connections with it (openPostgres), so a transaction's statements
 * go lean too.
 */
export class LeanClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const send = this.query.bind(this) as (...args: unknown[]) => unknown;
    const query = (config: unknown, values?: unknown, callback?: unknown): unknown => {
      if (!isPlainNamedStatement(config, values)) return send(config, values, callback);
      const lean = new LeanQuery(config, values as unknown[]);
      // A query object is answered through its callback only: the pool passes one, drizzle's
      // transactions await a promise.
      if (typeof callback === 'function') return send(lean, callback);
      return new Promise((resolve, reject) => {
        send(lean, (error: Error | undefined, result: unknown) => (error ? reject(error) : resolve(result)));
      });
    };
    Object.assign(this, { query });
  }
}
