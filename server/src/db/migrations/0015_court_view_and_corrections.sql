CREATE TABLE "certificate_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"field" text NOT NULL,
	"old_value" text NOT NULL,
	"value" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_staff_id" integer,
	"note" text,
	"certificate_id" integer
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "acknowledged_by_staff_id" integer;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "replaces_id" integer;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificate_corrections" ADD CONSTRAINT "certificate_corrections_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_corrections" ADD CONSTRAINT "certificate_corrections_decided_by_staff_id_staff_id_fk" FOREIGN KEY ("decided_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_corrections" ADD CONSTRAINT "certificate_corrections_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_corrections_status_idx" ON "certificate_corrections" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_corrections_one_pending_key" ON "certificate_corrections" USING btree ("student_id") WHERE "certificate_corrections"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_acknowledged_by_staff_id_staff_id_fk" FOREIGN KEY ("acknowledged_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;