-- Trigrams for the register's search: a trusted extension on PostgreSQL 13+ (the database owner may
-- create it); the embedded store loads PGlite's build of it (lib/platform/embedded-database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "verification_requests_search_names_trgm_idx" ON "verification_requests" USING gin ("search_names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "verification_requests_id_prefix_idx" ON "verification_requests" USING btree ("verification_id" text_pattern_ops);