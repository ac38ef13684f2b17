import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The newest course-content version each database connection has heard of (decision 038). A
 * trigger raises the version on every write to the course content and announces it on this
 * channel (migration 0026); every connection of the pool listens, so an instance hears an
 * edit made through any other before its next statement answers, and the copy of the content it
 * keeps in memory (course-content.ts) is read again. (The session lookup used to read the version
 * with every request, which decision 038 found too dear.)
 */
const CONTENT_VERSION_CHANNEL = 'content_version';

/** Per database client (the pool, or the PGlite instance): the newest version heard. */
const heard = new WeakMap<object, number>();

/** The newest content version this database client has heard of (0: none yet). */
export function heardContentVersion(client: object): number {
  return heard.get(client) ?? 0;
}

function noteContentVersion(client: object, version: number): void {
  if (Number.isSafeInteger(version) && version > heardContentVersion(client)) heard.set(client, version);
}

/** Notes the version stored now: what a connection that has just begun to listen may have missed. */
async function noteStoredVersion(
  client: object,
  query: (text: string) => Promise<{ rows: { version: number }[] }>,
): Promise<void> {
  try {
    noteContentVersion(
      client,
      (await query('select "version" from "content_version" where "id" = 1')).rows[0]?.version ?? 0,
    );
  } catch {
    // Before the migrations have made the table, there is no content to be stale.
  }
}

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
  await noteStoredVersion(pool, (text) => connection.query<{ version: number }>(text));
}

/** PGlite: one connection, in this process; its announcements arrive before a commit's promise settles. */
export async function listenOnPglite(client: PGlite): Promise<void> {
  await client.listen(CONTENT_VERSION_CHANNEL, (payload) => {
    noteContentVersion(client, Number(payload));
  });
  await noteStoredVersion(client, (text) => client.query<{ version: number }>(text));
}
