CREATE TABLE "audit_chain_checks" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"intact" text NOT NULL,
	"verified_seq" bigint NOT NULL,
	"verified_checkpoint_seq" bigint,
	"break_seq" bigint,
	"break_kind" text,
	CONSTRAINT "audit_chain_checks_one_row" CHECK ("audit_chain_checks"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audit_chain_head" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"anchor_seq" bigint DEFAULT 0 NOT NULL,
	"anchor_hash" text NOT NULL,
	CONSTRAINT "audit_chain_head_one_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_fingerprint" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_signing_keys" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The canonical encoding of an entry (docs/audit-chain.md, "Encoding"): one line of JSON, keys in
-- byte order, no spaces, strings escaped as JSON, the time in UTC to the microsecond, the details
-- as one flat object of strings, integers and booleans. lib/audit/chain/entry.ts writes the same
-- bytes in TypeScript; a test holds the two to each other on both stores.
CREATE FUNCTION "audit_entry_canonical"(
  p_id uuid, p_at timestamptz, p_actor_id text, p_action text, p_target_type text, p_target_id text, p_details jsonb, p_prev text
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT '{"action":' || to_json(p_action)::text
    || ',"actorId":' || coalesce(to_json(p_actor_id)::text, 'null')
    || ',"at":"' || to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"'
    || ',"details":' || CASE
      WHEN p_details IS NULL OR jsonb_typeof(p_details) = 'null' THEN 'null'
      ELSE (SELECT '{' || coalesce(string_agg(to_json(key)::text || ':' || value::text, ',' ORDER BY key COLLATE "C"), '') || '}'
            FROM jsonb_each(p_details))
    END
    || ',"id":"' || p_id::text || '"'
    || ',"prev":"' || p_prev || '"'
    || ',"targetId":' || coalesce(to_json(p_target_id)::text, 'null')
    || ',"targetType":' || coalesce(to_json(p_target_type)::text, 'null')
    || '}'
$$;
--> statement-breakpoint
CREATE FUNCTION "audit_entry_hash"(
  p_id uuid, p_at timestamptz, p_actor_id text, p_action text, p_target_type text, p_target_id text, p_details jsonb, p_prev text
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    "audit_entry_canonical"(p_id, p_at, p_actor_id, p_action, p_target_type, p_target_id, p_details, p_prev), 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- The entries written before this migration join the chain in the order they were written (time,
-- then id), the first following 64 zeros. One pass, in this migration's transaction.
DO $$
DECLARE
  entry record;
  previous text := repeat('0', 64);
  place bigint := 0;
  current_hash text;
BEGIN
  FOR entry IN SELECT * FROM "audit_entries" ORDER BY "at", "id" LOOP
    place := place + 1;
    current_hash := "audit_entry_hash"(entry."id", entry."at", entry."actor_id", entry."action",
      entry."target_type", entry."target_id", entry."details", previous);
    UPDATE "audit_entries" SET "seq" = place, "prev_hash" = previous, "hash" = current_hash WHERE "id" = entry."id";
    previous := current_hash;
  END LOOP;
  INSERT INTO "audit_chain_head" ("id", "seq", "hash", "anchor_seq", "anchor_hash")
    VALUES (1, place, previous, 0, repeat('0', 64));
END
$$;
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_entries_seq_idx" ON "audit_entries" USING btree ("seq");
--> statement-breakpoint
-- Every INSERT, by whichever instance or statement, takes the head's row lock, follows the last
-- entry and moves the head on. The lock is held to the end of the writer's transaction, so two
-- instances appending at once wait for each other instead of forking the chain. A writer that rolls
-- back takes back its entry and the head's move together. A restore of a data export
-- (`npm run data -- import`, lib/cli/data.ts) brings the entries with their places and hashes and
-- the head they led to, and says so for its transaction: those are kept as they are.
CREATE FUNCTION "audit_chain_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head record;
BEGIN
  IF current_setting('verification_desk.restoring', true) = 'on' AND NEW."hash" <> '' THEN
    RETURN NEW;
  END IF;
  SELECT "seq", "hash" INTO head FROM "audit_chain_head" WHERE "id" = 1 FOR UPDATE;
  NEW."seq" := head."seq" + 1;
  NEW."prev_hash" := head."hash";
  NEW."hash" := "audit_entry_hash"(NEW."id", NEW."at", NEW."actor_id", NEW."action",
    NEW."target_type", NEW."target_id", NEW."details", head."hash");
  UPDATE "audit_chain_head" SET "seq" = NEW."seq", "hash" = NEW."hash" WHERE "id" = 1;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_entries_chain" BEFORE INSERT ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_chain_append"();
