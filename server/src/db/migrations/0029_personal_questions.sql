CREATE TABLE "personal_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"question_key" text NOT NULL,
	"answer_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity_checks" ADD COLUMN "personal_key" text;--> statement-breakpoint
ALTER TABLE "personal_answers" ADD CONSTRAINT "personal_answers_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personal_answers_live_key" ON "personal_answers" USING btree ("student_id","question_key") WHERE "personal_answers"."archived_at" is null;