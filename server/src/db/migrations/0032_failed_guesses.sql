-- Decision 055: the guess throttle's rule lives in features/auth/throttle.ts alone. A guess starts
-- with one insert ... on conflict ... do update on its subject's row of failed_guesses, which
-- locks the row and reads its latest failures (a PL/pgSQL function's fresh statement did that for
-- the sign-in, and counted the failures again in its own words), so guess_student_sign_in
-- (migration 0023) and login_failures go. Each failure recorded so far moves to its subject's row
-- (its hash already names its scope, throttleSubjectHash) and its address's (throttleAddressHash:
-- the SHA-256 of "address:" and the address, as platform/tokens.ts hashes); the throttle counts
-- only those inside its window and drops the rest at its next write or the daily purge.
CREATE TABLE "failed_guesses" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"failed_at" timestamp with time zone[] NOT NULL
);
--> statement-breakpoint
INSERT INTO "failed_guesses" ("key_hash", "failed_at")
SELECT "subject_hash", array_agg("created_at" ORDER BY "created_at") FROM "login_failures" GROUP BY "subject_hash"
UNION ALL
SELECT encode(sha256(convert_to('address:' || "ip", 'UTF8')), 'hex'), array_agg("created_at" ORDER BY "created_at")
FROM "login_failures" GROUP BY "ip";--> statement-breakpoint
DROP FUNCTION IF EXISTS "guess_student_sign_in"(text, text, timestamptz, timestamptz, integer, integer, text, text);--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;
