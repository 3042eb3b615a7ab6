DROP INDEX "verification_requests_status_idx";--> statement-breakpoint
DROP INDEX "verification_requests_name_mismatch_idx";--> statement-breakpoint
CREATE INDEX "verification_requests_status_created_idx" ON "verification_requests" USING btree ("status","created_at","verification_id");--> statement-breakpoint
CREATE INDEX "verification_requests_pending_idx" ON "verification_requests" USING btree ("access_expires_at","created_at","verification_id") WHERE "verification_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "verification_requests_needs_review_idx" ON "verification_requests" USING btree ("created_at","verification_id") WHERE "verification_requests"."name_mismatch" and "verification_requests"."status" = 'completed';