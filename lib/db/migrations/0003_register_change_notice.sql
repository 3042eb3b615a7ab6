-- Custom SQL migration file, put your code below! --
-- Any change to the register (insert, update, delete, truncate: whatever statement made it)
-- notifies channel register_changed when its transaction commits. The process's in-memory copy
-- of register rows (lib/verifications/register-cache.ts) listens and forgets what it holds, so
-- it never outlives a change, however the change was made.
CREATE FUNCTION "notify_register_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('register_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "verification_requests_changed"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "verification_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_register_changed"();
