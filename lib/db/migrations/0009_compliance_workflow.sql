CREATE TABLE "name_reviews" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"decision" text NOT NULL,
	"note" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "name_mismatch" boolean;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "follows_verification_id" text;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "search_names" text GENERATED ALWAYS AS (lower(replace(replace(replace(replace(replace(replace(replace(replace(translate(regexp_replace(normalize("name" || chr(10) || coalesce("identified_name", ''), NFKD), '[\u0300-\u036f]', '', 'g'), 'ØøŁłĐđÐðĦħŦŧı', 'OoLlDdDdHhTti'), 'ß', 'ss'), 'ẞ', 'SS'), 'Æ', 'AE'), 'æ', 'ae'), 'Œ', 'OE'), 'œ', 'oe'), 'Þ', 'TH'), 'þ', 'th'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "name_reviews" ADD CONSTRAINT "name_reviews_verification_id_verification_requests_verification_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verification_requests"("verification_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "name_reviews" ADD CONSTRAINT "name_reviews_decided_by_staff_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD CONSTRAINT "verification_requests_follows_verification_id_verification_requests_verification_id_fk" FOREIGN KEY ("follows_verification_id") REFERENCES "public"."verification_requests"("verification_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_requests_follows_idx" ON "verification_requests" USING btree ("follows_verification_id");--> statement-breakpoint
CREATE INDEX "verification_requests_name_mismatch_idx" ON "verification_requests" USING btree ("created_at") WHERE "verification_requests"."name_mismatch";