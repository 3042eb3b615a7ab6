CREATE TABLE "create_submissions" (
	"key" uuid PRIMARY KEY NOT NULL,
	"verification_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_requests" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"purpose" text NOT NULL,
	"language" text NOT NULL,
	"shareable_link" boolean NOT NULL,
	"email_notification" boolean NOT NULL,
	"sms_notification" boolean NOT NULL,
	"link" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"access_expires_at" timestamp with time zone,
	"kept_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refreshed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "verification_requests_created_idx" ON "verification_requests" USING btree ("created_at");