-- Decision 055: one open attempt per student and quiz is a partial unique index, and a draw's
-- write is `insert ... on conflict do nothing` (features/quiz/open-attempts.ts, saveDrawnAttempt),
-- so draw_quiz_attempt (migration 0022) and its advisory lock go. An installation that drew before
-- the draw took its lock (2026-11-22) may hold two open attempts of one quiz: the course shows and
-- grades only the newest, and an open attempt holds no answer, score or result, so the older ones
-- are deleted for the index to be built (nothing counts an open attempt: quiz-rules counts
-- submitted ones).
DELETE FROM "quiz_attempts" "older"
WHERE "older"."submitted_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "quiz_attempts" "newer"
    WHERE "newer"."student_id" = "older"."student_id" AND "newer"."chapter_id" = "older"."chapter_id"
      AND "newer"."submitted_at" IS NULL AND "newer"."id" > "older"."id"
  );--> statement-breakpoint
CREATE UNIQUE INDEX "quiz_attempts_one_open_key" ON "quiz_attempts" USING btree ("student_id","chapter_id") WHERE "quiz_attempts"."submitted_at" is null;--> statement-breakpoint
DROP FUNCTION IF EXISTS "draw_quiz_attempt"(integer, integer, jsonb, jsonb, timestamptz, text, integer);
