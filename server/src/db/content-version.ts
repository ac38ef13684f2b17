import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The newest course-content version each database connection has heard of (issue 15, decision
 * 038). A trigger raises the version on every write to the course content and announces it on
 * this channel (migration 0026); every connection of the pool listens, so an instance hears an
 * edit made through any other before its next statement answers, and the copy of the content it
 * keeps in memory (course-content.ts) is read again. Until now the session lookup read the version
 * itself, at a fifth of the lookup's cost.
 */
export const CONTENT_VERSION_CHANNEL = 'content_version';

/** Per database client (the pool, or the PGlite instance): the newest version heard. */
const heard = new WeakMap<object, number>();

/** The newest content version this database client has heard of (0: none yet). */
export function heardContentVersion(client: object): number {
  return heard.get(client) ?? 0;
}

function noteContentVersion(client: object, version: number): void {
  if (Number.isSafeInteger(version) && version > heardContentVersion(client)) heard.set(client, version);
}

const READ_VERSION = 'select "version" from "content_version" where "id" = 1';

/**
 * A new pool connection listens before anything else runs on it, then reads the version: an edit
 * committed before it listened is in what it reads, one committed after is announced to it.
 * PostgreSQL sends a listening connection the announcements that arrived while it worked before
 * the end of its next statement, so once an edit's commit has been acknowledged, any statement
 * started afterwards on any listening connection returns after its announcement has been heard.
 */
export function listenOnConnection(pool: pg.Pool, connection: pg.PoolClient): void {
  connection.on('notification', (message) => {
    if (message.channel === CONTENT_VERSION_CHANNEL) noteContentVersion(pool, Number(message.payload));
  });
  // Queued ahead of the statement the pool opened the connection for. A connection that cannot
  // listen could serve stale content for ever, so it is closed instead (its statement fails, and
  // the pool drops it when it comes back).
  connection.query(`LISTEN ${CONTENT_VERSION_CHANNEL}`).catch(() => connection.end().catch(() => undefined));
  connection.query<{ version: number }>(READ_VERSION).then(
    (result) => {
      noteContentVersion(pool, result.rows[0]?.version ?? 0);
    },
    // Before the migrations have made the table, there is no content to be stale.
    () => undefined,
  );
}

/** PGlite: one connection, in this process; its announcements arrive before a commit's promise settles. */
export async function listenOnPglite(client: PGlite): Promise<void> {
  await client.listen(CONTENT_VERSION_CHANNEL, (payload) => {
    noteContentVersion(client, Number(payload));
  });
  try {
    noteContentVersion(client, (await client.query<{ version: number }>(READ_VERSION)).rows[0]?.version ?? 0);
  } catch {
    // A database not migrated yet: no content to be stale.
  }
}
