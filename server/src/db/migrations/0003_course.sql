CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"position" integer NOT NULL,
	"content" text NOT NULL,
	"content_es" text,
	"is_correct" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chapter_completions" (
	"student_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"attempt_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapter_completions_student_id_chapter_id_pk" PRIMARY KEY("student_id","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "module_completions" (
	"student_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "module_completions_student_id_module_id_pk" PRIMARY KEY("student_id","module_id")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_key" text NOT NULL,
	"chapter_id" integer NOT NULL,
	"module_key" text,
	"question" text NOT NULL,
	"question_es" text,
	"explanation" text,
	"explanation_es" text,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quiz_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"question_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"score" integer,
	"passed" boolean,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_key" text NOT NULL,
	"module_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"title_es" text,
	"html_content" text NOT NULL,
	"html_content_es" text
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_key" text NOT NULL,
	"module_id" integer NOT NULL,
	"path" text NOT NULL,
	"question" text NOT NULL,
	"correct_answer" text NOT NULL,
	"incorrect_answer" text NOT NULL,
	"question_es" text,
	"correct_answer_es" text,
	"incorrect_answer_es" text
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "title_es" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "description_es" text;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "title_es" text;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_completions" ADD CONSTRAINT "chapter_completions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_completions" ADD CONSTRAINT "chapter_completions_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_completions" ADD CONSTRAINT "chapter_completions_attempt_id_quiz_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."quiz_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_completions" ADD CONSTRAINT "module_completions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_completions" ADD CONSTRAINT "module_completions_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answers_question_position_key" ON "answers" USING btree ("question_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_content_key_key" ON "questions" USING btree ("content_key");--> statement-breakpoint
CREATE INDEX "questions_chapter_idx" ON "questions" USING btree ("chapter_id");--> statement-breakpoint
CREATE INDEX "quiz_attempts_student_chapter_idx" ON "quiz_attempts" USING btree ("student_id","chapter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_content_key_key" ON "topics" USING btree ("content_key");--> statement-breakpoint
CREATE INDEX "topics_module_idx" ON "topics" USING btree ("module_id");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_content_key_key" ON "videos" USING btree ("content_key");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_module_key" ON "videos" USING btree ("module_id");