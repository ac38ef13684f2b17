-- Decision 027: a graded attempt keeps its whole result in both languages (about 28 kB for a
-- final) and PostgreSQL's default compression (pglz) was a large share of the database's time in
-- a final pass. lz4 compresses as well for this text at a fraction of the cost. It changes only
-- how new values are stored; old ones stay readable. PGlite is built without lz4 and keeps pglz.
DO $$
BEGIN
  ALTER TABLE "quiz_attempts" ALTER COLUMN "result" SET COMPRESSION lz4;
  ALTER TABLE "certificates" ALTER COLUMN "snapshot" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
