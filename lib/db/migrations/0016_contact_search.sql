-- The register's search (issue 29): names without spaces, hyphens or apostrophes, refilled for every row
-- by the new generated expression; dropping the old column dropped its trigram index, made again here.
ALTER TABLE "verification_requests" drop column "search_names";--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "search_names" text GENERATED ALWAYS AS (translate(lower(replace(replace(replace(replace(replace(replace(replace(replace(translate(regexp_replace(normalize("name" || chr(10) || coalesce("identified_name", ''), NFKD), '[\u0300-\u036f]', '', 'g'), 'ØøŁłĐđÐðĦħŦŧı', 'OoLlDdDdHhTti'), 'ß', 'ss'), 'ẞ', 'SS'), 'Æ', 'AE'), 'æ', 'ae'), 'Œ', 'OE'), 'œ', 'oe'), 'Þ', 'TH'), 'þ', 'th')), ' -‐‑‒–—''‘’ʼ`', '')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_requests_search_names_trgm_idx" ON "verification_requests" USING gin ("search_names" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "contact_digests" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_requests_link_idx" ON "verification_requests" USING hash ("link");--> statement-breakpoint
CREATE INDEX "verification_requests_contact_digests_idx" ON "verification_requests" USING gin ("contact_digests");