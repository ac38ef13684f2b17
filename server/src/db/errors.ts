const UNIQUE_VIOLATION = '23505';

function codeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined;
}

/**
 * True when a write broke a unique index (PostgreSQL error 23505). Drizzle wraps the driver's
 * error, so the code is on the error itself or on its cause, depending on the driver.
 */
export function isUniqueViolation(error: unknown): boolean {
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? error.cause : undefined;
  return codeOf(error) === UNIQUE_VIOLATION || codeOf(cause) === UNIQUE_VIOLATION;
}

/**
 * SQLSTATEs of a connection the server ended or would not open: class 08 (connection exception)
 * and 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: a restart, a failover).
 */
const CONNECTION_SQLSTATES = /^(08|57P0[1-3]$)/;
/** The socket's own failures, before or under the protocol. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
/**
 * node-postgres' and pg-pool's errors that carry no code: a connection ended or timed out
 * ("Connection terminated unexpectedly", "... due to connection timeout", the connection's own
 * "timeout expired" while opening, db/client.ts's connectMs), a pool that found no
 * connection in time ("timeout exceeded when trying to connect", its connectionTimeoutMillis), a
 * statement that got no answer on a dead connection ("Query read timeout", its query_timeout), a
 * client left unusable ("... is not queryable"). Only on errors that are not the server's own
 * answer (those have a `routine`), so a statement's message never decides.
 */
const CONNECTION_MESSAGES =
  /connection terminated|not queryable|connection error|terminating connection|timeout exceeded when trying to connect|^timeout expired$|query read timeout/i;

/**
 * Whether an error says the database could not be reached, rather than that a statement failed:
 * the one test behind the API's 503 with Retry-After (plugins/errors.ts, decision 061). A
 * transaction the call ran is rolled back by the server, unless the connection was lost while its
 * COMMIT was on the way (decision 061 says which calls the web repeats). Drizzle wraps the driver's error as
 * its `cause`, and pg-pool's connection timeout wraps the socket's.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let candidate = error, depth = 0; candidate && depth < 4; depth += 1) {
    if (typeof candidate !== 'object') return false;
    const { code, message, cause } = candidate as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (CONNECTION_SQLSTATES.test(code) || CONNECTION_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message) && !('routine' in candidate)) return true;
    candidate = cause;
  }
  return false;
}
