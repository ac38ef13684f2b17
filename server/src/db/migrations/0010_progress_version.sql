ALTER TABLE "students" ADD COLUMN "progress_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Decision 019: any change to a student's completions, by the app or by hand, raises
-- that student's progress version in the writer's own transaction (an insert that does nothing
-- on conflict fires nothing).
CREATE FUNCTION "raise_progress_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "students" SET "progress_version" = "progress_version" + 1
  WHERE "id" = CASE WHEN TG_OP = 'DELETE' THEN OLD."student_id" ELSE NEW."student_id" END;
  IF TG_OP = 'UPDATE' AND OLD."student_id" <> NEW."student_id" THEN
    UPDATE "students" SET "progress_version" = "progress_version" + 1 WHERE "id" = OLD."student_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "module_completions_raise_progress_version" AFTER INSERT OR UPDATE OR DELETE ON "module_completions" FOR EACH ROW EXECUTE FUNCTION "raise_progress_version"();--> statement-breakpoint
CREATE TRIGGER "chapter_completions_raise_progress_version" AFTER INSERT OR UPDATE OR DELETE ON "chapter_completions" FOR EACH ROW EXECUTE FUNCTION "raise_progress_version"();
