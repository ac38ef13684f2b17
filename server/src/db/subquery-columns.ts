import { sql } from 'drizzle-orm';
import { students } from './schema.ts';

// Helpers for columns built from correlated subqueries (the heartbeat's one read, a student's
// progress: decision 019).

/**
 * The outer query's student id, always qualified: drizzle leaves a one-table query's columns
 * bare, and a bare "id" inside a subquery would name the subquery's own table.
 */
export const OUTER_STUDENT_ID = sql`${students}.${sql.identifier('id')}`;

/** A json column's value: node-postgres and PGlite hand it over parsed; a string is parsed all the same. */
export function parseJsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * A nullable timestamp column's value as a Date: drizzle maps only its own columns, and a raw
 * query's or a built column's timestamps come as the driver's text on PGlite.
 */
export function timestampOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** A json array column as an array (empty for null). */
export function jsonArrayColumn<T>(value: unknown): T[] {
  const parsed = parseJsonColumn(value);
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

/** A json array of ids as numbers (empty for null). */
export function jsonIdsColumn(value: unknown): number[] {
  return jsonArrayColumn<unknown>(value).map(Number);
}
