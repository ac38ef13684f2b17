-- Decision 031: a quiz draw's write in one statement. It was a transaction of five (begin, the draw's
-- lock, the latest attempt, the insert, commit), and between two of them the transaction held one
-- of the instance's few pool connections while it waited for the instance's next turn: with a
-- thousand students at once the connections sat idle in transactions during every quiz and all
-- other requests queued behind them. The function takes the same lock as that transaction did (so
-- an instance of the previous release drawing at the same moment is still kept out), answers the
-- student's open attempt at the quiz if there is one (drawn by a request at the same moment), and
-- otherwise saves the attempt the server drew. Each statement in it sees what was committed before
-- it began, so the open attempt read after the lock is never missed.
CREATE FUNCTION "draw_quiz_attempt"(
  "p_student_id" integer,
  "p_chapter_id" integer,
  "p_question_ids" jsonb,
  "p_answer_order" jsonb,
  "p_created_at" timestamptz,
  "p_rules_profile_id" text,
  "p_rules_profile_version" integer
) RETURNS SETOF "quiz_attempts" LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(p_student_id, p_chapter_id);
  RETURN QUERY
  SELECT * FROM "quiz_attempts" a
  WHERE a."student_id" = p_student_id AND a."chapter_id" = p_chapter_id AND a."submitted_at" IS NULL
  ORDER BY a."id" DESC
  LIMIT 1;
  IF FOUND THEN
    RETURN;
  END IF;
  RETURN QUERY
  INSERT INTO "quiz_attempts" ("student_id", "chapter_id", "question_ids", "answer_order", "created_at",
    "rules_profile_id", "rules_profile_version")
  VALUES (p_student_id, p_chapter_id, p_question_ids, p_answer_order, p_created_at, p_rules_profile_id,
    p_rules_profile_version)
  RETURNING *;
END
$$;
