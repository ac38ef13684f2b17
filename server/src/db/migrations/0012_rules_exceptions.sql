CREATE TABLE "rules_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"kind" text NOT NULL,
	"chapter_id" integer,
	"days" integer,
	"reason" text NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rules_exceptions_kind_check" CHECK (("rules_exceptions"."kind" = 'extra_attempt' and "rules_exceptions"."chapter_id" is not null and "rules_exceptions"."days" is null) or ("rules_exceptions"."kind" = 'extend_window' and "rules_exceptions"."chapter_id" is null and "rules_exceptions"."days" between 1 and 365))
);
--> statement-breakpoint
ALTER TABLE "rules_exceptions" ADD CONSTRAINT "rules_exceptions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules_exceptions" ADD CONSTRAINT "rules_exceptions_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules_exceptions" ADD CONSTRAINT "rules_exceptions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rules_exceptions_student_idx" ON "rules_exceptions" USING btree ("student_id");