CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"token_validity_seconds" integer DEFAULT 604800 NOT NULL,
	"verification_retention_seconds" integer DEFAULT 2592000 NOT NULL,
	"audit_log_retention_seconds" integer DEFAULT 7776000 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"verification_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"language" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."verifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"access_token_hash" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone_number" text,
	"language" text NOT NULL,
	"purpose" text NOT NULL,
	"shareable_link" boolean NOT NULL,
	"email_notification" boolean NOT NULL,
	"sms_notification" boolean NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"identified_name" text,
	"identified_date" timestamp with time zone,
	"verification_method" text,
	"failed_reason" text,
	"access_expires_at" timestamp with time zone NOT NULL,
	"kept_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifications_access_token_hash_unique" UNIQUE("access_token_hash")
);
--> statement-breakpoint
ALTER TABLE "sandbox"."api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "sandbox"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."outbox" ADD CONSTRAINT "outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "sandbox"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."outbox" ADD CONSTRAINT "outbox_verification_id_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "sandbox"."verifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."verifications" ADD CONSTRAINT "verifications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "sandbox"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_company_idx" ON "sandbox"."api_keys" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "sandbox"."outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "verifications_company_idx" ON "sandbox"."verifications" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "verifications_pending_expiry_idx" ON "sandbox"."verifications" USING btree ("access_expires_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "verifications_kept_until_idx" ON "sandbox"."verifications" USING btree ("kept_until");