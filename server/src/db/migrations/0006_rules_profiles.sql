CREATE TABLE "course_locks" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"reason" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"unlocked_at" timestamp with time zone,
	"unlocked_by_staff_id" integer
);
--> statement-breakpoint
CREATE TABLE "identity_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"source" text NOT NULL,
	"reason" text NOT NULL,
	"counted_seconds_at_ask" integer DEFAULT 0 NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "rules_profiles" (
	"id" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rules_profiles_id_version_pk" PRIMARY KEY("id","version")
);
--> statement-breakpoint
CREATE TABLE "seat_time_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"credited_seconds" integer NOT NULL,
	"school_day" date NOT NULL,
	CONSTRAINT "seat_time_ledger_credit_check" CHECK ("seat_time_ledger"."credited_seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "rules_profile_id" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "rules_profile_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "routing" text DEFAULT 'student_and_court' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "retain_until" date;--> statement-breakpoint
ALTER TABLE "courts" ADD COLUMN "rules_profile_id" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "rules_profile_id" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "rules_profile_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "rules_profile_id" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "rules_profile_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "court_due_date" date;--> statement-breakpoint
ALTER TABLE "course_locks" ADD CONSTRAINT "course_locks_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_locks" ADD CONSTRAINT "course_locks_unlocked_by_staff_id_staff_id_fk" FOREIGN KEY ("unlocked_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_checks" ADD CONSTRAINT "identity_checks_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_time_ledger" ADD CONSTRAINT "seat_time_ledger_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_time_ledger" ADD CONSTRAINT "seat_time_ledger_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_time_ledger" ADD CONSTRAINT "seat_time_ledger_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_locks_student_idx" ON "course_locks" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "identity_checks_student_idx" ON "identity_checks" USING btree ("student_id","asked_at");--> statement-breakpoint
CREATE INDEX "seat_time_ledger_student_idx" ON "seat_time_ledger" USING btree ("student_id","heartbeat_at");--> statement-breakpoint
-- The seat-time ledger is append-only: auditors can trust that counted time was never edited.
CREATE FUNCTION seat_time_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'seat_time_ledger is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER seat_time_ledger_no_change BEFORE UPDATE OR DELETE ON "seat_time_ledger"
  FOR EACH ROW EXECUTE FUNCTION seat_time_ledger_append_only();
