CREATE TABLE "name_reviews" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"decision" text NOT NULL,
	"note" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "name_mismatch" boolean;--> statement-breakpoint
ALTER TABLE "name_reviews" ADD CONSTRAINT "name_reviews_verification_id_verification_requests_verification_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verification_requests"("verification_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "name_reviews" ADD CONSTRAINT "name_reviews_decided_by_staff_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_requests_name_mismatch_idx" ON "verification_requests" USING btree ("created_at") WHERE "verification_requests"."name_mismatch";