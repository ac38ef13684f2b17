CREATE TABLE "content_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "content_version_one_row" CHECK ("content_version"."id" = 1)
);
--> statement-breakpoint
-- Decision 019: any write to the course content, by the app or by hand, raises the
-- version once per statement, in the writer's own transaction.
INSERT INTO "content_version" ("id", "version") VALUES (1, 1);--> statement-breakpoint
CREATE FUNCTION "raise_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "content_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "chapters_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "chapters" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();--> statement-breakpoint
CREATE TRIGGER "modules_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "modules" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();--> statement-breakpoint
CREATE TRIGGER "topics_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "topics" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();--> statement-breakpoint
CREATE TRIGGER "videos_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "videos" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();--> statement-breakpoint
CREATE TRIGGER "questions_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "questions" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();--> statement-breakpoint
CREATE TRIGGER "answers_raise_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "answers" FOR EACH STATEMENT EXECUTE FUNCTION "raise_content_version"();
