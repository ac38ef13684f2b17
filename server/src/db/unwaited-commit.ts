import { sql } from 'drizzle-orm';

/**
 * A condition for the `where` of a statement whose write a student redoes with one click (a
 * module marked complete, decision 035): always true, and it makes the statement's transaction
 * commit without waiting for the disk (PostgreSQL's `synchronous_commit` off for this
 * transaction alone; PGlite the same). A write that waits for the disk takes every earlier one
 * with it, so only the last fraction of a second of such writes can be lost, in a crash of the
 * database server itself, and nothing that waited (a grade, a payment, a certificate) ever rests
 * on one that was lost. Whenever the statement writes a row, the condition was evaluated.
 */
export const COMMIT_UNWAITED = sql`set_config('synchronous_commit', 'off', true) = 'off'`;
