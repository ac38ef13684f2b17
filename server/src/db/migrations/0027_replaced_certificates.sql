-- Decision 041: the reissue that superseded a certificate (for /verify, see schema.ts), and
-- the emails a correction stopped marked cancelled rather than failed.
ALTER TABLE "certificates" ADD COLUMN "superseded_by_id" integer;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_superseded_by_id_certificates_id_fk" FOREIGN KEY ("superseded_by_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A correction approved before this column existed superseded every current certificate of its
-- student at the same moment and issued one reissue, which replaces (replaces_id) the newest: the
-- reissue of the others is the one whose replaced certificate was superseded at that moment.
UPDATE "certificates" AS "c" SET "superseded_by_id" = "r"."id"
FROM "certificates" AS "r"
JOIN "certificates" AS "replaced" ON "replaced"."id" = "r"."replaces_id"
WHERE "c"."superseded_at" IS NOT NULL
  AND "c"."superseded_by_id" IS NULL
  AND "replaced"."student_id" = "c"."student_id"
  AND "replaced"."superseded_at" = "c"."superseded_at";
--> statement-breakpoint
-- Emails a correction stopped before they went were marked failed, counted with the ones that gave
-- up (the dashboard's dead letter) and shown to the student as "could not be sent".
UPDATE "certificate_deliveries" SET "status" = 'cancelled'
WHERE "status" = 'failed' AND "last_error" = 'Replaced by a corrected certificate before it was sent.';
