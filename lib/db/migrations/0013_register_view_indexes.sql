DROP INDEX "verification_requests_status_idx";--> statement-breakpoint
DROP INDEX "verification_requests_name_mismatch_idx";--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "name_reviewed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Whether staff have decided on a request's names, kept on the register row by a trigger on
-- name_reviews, however a review is written (the app, an import), so that "Needs review" is a
-- partial index of the undecided few. Filled for the reviews already made.
UPDATE "verification_requests" SET "name_reviewed" = true
  WHERE EXISTS (SELECT 1 FROM "name_reviews" WHERE "name_reviews"."verification_id" = "verification_requests"."verification_id");--> statement-breakpoint
CREATE FUNCTION "mark_name_reviewed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "verification_requests" SET "name_reviewed" = false WHERE "verification_id" = OLD."verification_id";
  ELSE
    UPDATE "verification_requests" SET "name_reviewed" = true
      WHERE "verification_id" = NEW."verification_id" AND NOT "name_reviewed";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "name_reviews_mark_reviewed"
  AFTER INSERT OR DELETE ON "name_reviews"
  FOR EACH ROW EXECUTE FUNCTION "mark_name_reviewed"();--> statement-breakpoint
CREATE INDEX "verification_requests_status_created_idx" ON "verification_requests" USING btree ("status","created_at","verification_id");--> statement-breakpoint
CREATE INDEX "verification_requests_pending_idx" ON "verification_requests" USING btree ("access_expires_at","created_at","verification_id") WHERE "verification_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "verification_requests_needs_review_idx" ON "verification_requests" USING btree ("created_at","verification_id") WHERE "verification_requests"."name_mismatch" and "verification_requests"."status" = 'completed' and not "verification_requests"."name_reviewed";