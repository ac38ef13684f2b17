-- Decision 033: the session lookup no longer goes through find_session (migration 0019).
-- PGlite now keeps the lookup as a named prepared statement, as PostgreSQL's connections do, so
-- both engines send the one prepared query of plugins/session.ts and the function has no caller.
DROP FUNCTION IF EXISTS "find_session"(text, timestamptz);
