-- Decision 032: a student's sign-in guess in one statement. It was a transaction of five or six
-- (begin, the licence's lock, the counted failures, the student, a failure if none, commit), and
-- between two of them the transaction held one of the instance's few pool connections while it
-- waited for the instance's next turn. The function does the same steps under the same lock
-- (withGuessThrottle's, so registrations probing the same licence still queue with it), and each
-- statement in it sees what was committed before it began: the failures counted after the lock
-- include every guess of this licence that held it before. The limits and the window come from
-- the caller (features/auth/throttle.ts), which counts the same failures for its other guesses.
CREATE FUNCTION "guess_student_sign_in"(
  "p_subject_hash" text,
  "p_ip" text,
  "p_since" timestamptz,
  "p_now" timestamptz,
  "p_max_by_subject" integer,
  "p_max_by_address" integer,
  "p_dl_number" text,
  "p_last_name" text
) RETURNS TABLE (
  "over_limit" boolean,
  "oldest_failure" timestamptz,
  "id" integer,
  "first_name" text,
  "last_name" text,
  "payment_at" timestamptz,
  "completed_at" timestamptz
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_by_subject bigint;
  v_by_address bigint;
  v_oldest timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(p_subject_hash));
  SELECT count(*) FILTER (WHERE f."scope" = 'student' AND f."subject_hash" = p_subject_hash),
    count(*) FILTER (WHERE f."ip" = p_ip),
    min(f."created_at")
  INTO v_by_subject, v_by_address, v_oldest
  FROM "login_failures" f
  WHERE f."created_at" > p_since
    AND ((f."scope" = 'student' AND f."subject_hash" = p_subject_hash) OR f."ip" = p_ip);
  IF v_by_subject >= p_max_by_subject OR v_by_address >= p_max_by_address THEN
    RETURN QUERY SELECT true, v_oldest, NULL::integer, NULL::text, NULL::text, NULL::timestamptz, NULL::timestamptz;
    RETURN;
  END IF;
  RETURN QUERY
  SELECT false, NULL::timestamptz, s."id", s."first_name", s."last_name", s."payment_at", s."completed_at"
  FROM "students" s
  WHERE s."dl_number" = p_dl_number AND s."archived_at" IS NULL AND lower(s."last_name") = lower(p_last_name)
  LIMIT 1;
  IF FOUND THEN
    RETURN;
  END IF;
  INSERT INTO "login_failures" ("scope", "subject_hash", "ip", "created_at")
  VALUES ('student', p_subject_hash, p_ip, p_now);
  RETURN QUERY SELECT false, NULL::timestamptz, NULL::integer, NULL::text, NULL::text, NULL::timestamptz, NULL::timestamptz;
END
$$;
