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
 * A new pool connection listens, then reads the version, before the pool hands it out (pg-pool's
 * `onConnect`): an edit committed before it listened is in what it reads, one committed after is
 * announced to it. PostgreSQL sends a listening connection the announcements it was signalled
 * before the end of its next statement (or at once, when idle), and the committing connection
 * signals before its commit is acknowledged; so once an edit's commit has been acknowledged, any
 * statement started afterwards on any listening connection answers after its announcement has
 * been heard. A connection that cannot listen could serve stale content for ever: the error
 * makes the pool close it (and fail the statement it was opened for).
 */
export async function listenOnConnection(pool: pg.Pool, connection: pg.ClientBase): Promise<void> {
  connection.on('notification', (message) => {
    if (message.channel === CONTENT_VERSION_CHANNEL) noteContentVersion(pool, Number(message.payload));
  });
  await connection.query(`LISTEN ${CONTENT_VERSION_CHANNEL}`);
  try {
    noteContentVersion(pool, (await connection.query<{ version: number }>(READ_VERSION)).rows[0]?.version ?? 0);
  } catch {
    // Before the migrations have made the table, there is no content to be stale.
  }
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
