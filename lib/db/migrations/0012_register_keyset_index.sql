DROP INDEX "verification_requests_created_idx";--> statement-breakpoint
CREATE INDEX "verification_requests_created_id_idx" ON "verification_requests" USING btree ("created_at","verification_id");