CREATE TABLE "state_filing_certificates" (
	"filing_id" integer NOT NULL,
	"certificate_id" integer NOT NULL,
	CONSTRAINT "state_filing_certificates_filing_id_certificate_id_pk" PRIMARY KEY("filing_id","certificate_id")
);
--> statement-breakpoint
CREATE TABLE "state_filings" (
	"id" serial PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"status" text NOT NULL,
	"exported_by_staff_id" integer NOT NULL,
	"exported_at" timestamp with time zone NOT NULL,
	"filed_at" timestamp with time zone,
	"confirmation_reference" text,
	"rejected_at" timestamp with time zone,
	"rejection_reason" text,
	"closed_by_staff_id" integer
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "case_number" text;--> statement-breakpoint
ALTER TABLE "state_filing_certificates" ADD CONSTRAINT "state_filing_certificates_filing_id_state_filings_id_fk" FOREIGN KEY ("filing_id") REFERENCES "public"."state_filings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "state_filing_certificates" ADD CONSTRAINT "state_filing_certificates_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "state_filings" ADD CONSTRAINT "state_filings_exported_by_staff_id_staff_id_fk" FOREIGN KEY ("exported_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "state_filings" ADD CONSTRAINT "state_filings_closed_by_staff_id_staff_id_fk" FOREIGN KEY ("closed_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "state_filing_certificates_certificate_idx" ON "state_filing_certificates" USING btree ("certificate_id");--> statement-breakpoint
CREATE INDEX "state_filings_state_idx" ON "state_filings" USING btree ("state","exported_at");