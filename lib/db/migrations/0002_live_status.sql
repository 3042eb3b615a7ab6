CREATE TABLE "webhook_receipts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"verification_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "identified_name" text;--> statement-breakpoint
CREATE INDEX "verification_requests_kept_until_idx" ON "verification_requests" USING btree ("kept_until");--> statement-breakpoint
CREATE INDEX "verification_requests_status_idx" ON "verification_requests" USING btree ("status","access_expires_at");