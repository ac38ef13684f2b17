-- Decision 027: the session lookup as a function, for PGlite. PGlite parses and plans every query it
-- is sent (drizzle's "prepared" statements are not kept there), and this three-table lookup runs
-- on every signed-in request: planned once per connection inside PL/pgSQL, it costs about what a
-- primary-key lookup does (bench/README.md, session 10). PostgreSQL keeps using the prepared
-- statement of plugins/session.ts; both return the same columns (plugins/session.ts says which).
CREATE FUNCTION "find_session"("p_token_hash" text, "p_now" timestamptz)
RETURNS TABLE (
  "student_id" integer,
  "student_archived_at" timestamptz,
  "student_payment_at" timestamptz,
  "profile_id" text,
  "profile_version" integer,
  "progress_version" integer,
  "first_name" text,
  "last_name" text,
  "student_completed_at" timestamptz,
  "staff_name" text,
  "content_version" integer,
  "staff_id" integer,
  "role" text,
  "court_id" integer,
  "staff_disabled_at" timestamptz
) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT s."id", s."archived_at", s."payment_at", s."rules_profile_id", s."rules_profile_version",
    s."progress_version", s."first_name", s."last_name", s."completed_at", st."name",
    (SELECT cv."version" FROM "content_version" cv WHERE cv."id" = 1),
    st."id", st."role", st."court_id", st."disabled_at"
  FROM "sessions" se
  LEFT JOIN "students" s ON s."id" = se."student_id"
  LEFT JOIN "staff" st ON st."id" = se."staff_id"
  WHERE se."token_hash" = p_token_hash AND se."ended_at" IS NULL AND se."expires_at" > p_now
  LIMIT 1;
END
$$;
