ALTER TABLE "certificates" ALTER COLUMN "pdf" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ALTER COLUMN "pdf_sha256" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_pdf_with_hash_check" CHECK (("certificates"."pdf" is null) = ("certificates"."pdf_sha256" is null));