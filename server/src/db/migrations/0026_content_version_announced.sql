-- Decision 038: a write to the course content raises the version and announces it, so
-- every instance's listening connections hear it (delivered at commit, with the new version). The
-- session lookup no longer reads the version with every request.
CREATE OR REPLACE FUNCTION "raise_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  raised integer;
BEGIN
  UPDATE "content_version" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO raised;
  PERFORM pg_notify('content_version', raised::text);
  RETURN NULL;
END
$$;
