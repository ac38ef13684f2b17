ALTER TABLE "reset_tokens" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "reset_tokens" ADD COLUMN "dl_number" text;