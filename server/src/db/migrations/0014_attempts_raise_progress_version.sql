-- Decision 019: drawing or grading a quiz attempt raises the student's progress version too, so an
-- instance's copy of the student's open attempts (features/quiz/open-attempts.ts) is known fresh
-- or stale from the session lookup alone, as the completions' copy is (migration 0010).
CREATE TRIGGER "quiz_attempts_raise_progress_version" AFTER INSERT OR UPDATE OR DELETE ON "quiz_attempts" FOR EACH ROW EXECUTE FUNCTION "raise_progress_version"();
