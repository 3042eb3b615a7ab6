CREATE TABLE "sandbox"."job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone,
	"last_run_by" text,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone
);
