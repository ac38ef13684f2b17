-- Issue 15, decision 039: a quiz result is stored as it was shown (13-14 KB of JSON for a chapter
-- or the final), and PostgreSQL's own compression (pglz) spent about 110 µs on each, an eighth of
-- a final pass's time in the database; lz4 takes about 20 µs for the same size on disk. New
-- values only: those already stored stay as they are, and read the same. PGlite is built without
-- lz4, so there the columns keep pglz.
DO $$
BEGIN
  ALTER TABLE "quiz_attempts" ALTER COLUMN "result" SET COMPRESSION lz4;
  ALTER TABLE "certificates" ALTER COLUMN "pdf" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
