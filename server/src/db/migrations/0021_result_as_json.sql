-- Decision 029: a graded attempt's result is a record written once and never queried into; as
-- jsonb PostgreSQL parsed its 28 kB into a tree on every final's write, most of that statement's
-- work. The text is kept as given, still checked.
ALTER TABLE "quiz_attempts" ALTER COLUMN "result" SET DATA TYPE json USING "result"::json;--> statement-breakpoint
-- The new column keeps lz4 where the server has it (0020).
DO $$
BEGIN
  ALTER TABLE "quiz_attempts" ALTER COLUMN "result" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
