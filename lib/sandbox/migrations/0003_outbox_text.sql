ALTER TABLE "sandbox"."outbox" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "sandbox"."outbox" ADD COLUMN "body" text;