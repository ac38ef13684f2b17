-- The progress version is raised once per student per transaction. A quiz grade changes
-- the attempt and the chapter's completions in one statement, and each row's trigger rewrote the
-- student's row again (a final pass wrote it three times with its completion). One raise already
-- tells every instance's copy that the student's progress changed: copies are taken only of what
-- is committed, outside transactions (decision 019). The mark is transaction-local (set_config's
-- `true`), so it goes with the transaction, and with a savepoint rolled back to.
CREATE OR REPLACE FUNCTION "raise_progress_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target integer := CASE WHEN TG_OP = 'DELETE' THEN OLD."student_id" ELSE NEW."student_id" END;
BEGIN
  IF current_setting('traffic_school.progress_raised_for', true) IS DISTINCT FROM target::text THEN
    UPDATE "students" SET "progress_version" = "progress_version" + 1 WHERE "id" = target;
    PERFORM set_config('traffic_school.progress_raised_for', target::text, true);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."student_id" <> NEW."student_id" THEN
    UPDATE "students" SET "progress_version" = "progress_version" + 1 WHERE "id" = OLD."student_id";
  END IF;
  RETURN NULL;
END
$$;
