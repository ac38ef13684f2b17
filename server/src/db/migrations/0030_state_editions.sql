ALTER TABLE "modules" ADD COLUMN "edition" text;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "edition" text;