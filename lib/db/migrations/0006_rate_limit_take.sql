-- Custom SQL migration file, put your code below! --
-- One sliding-window decision of lib/platform/shared-rate-limit.ts as one call, so a limited
-- action pays one round trip to the database instead of four (BEGIN, the lock, the decision,
-- COMMIT). The steps and their order are the ones the module describes: lock the key for this
-- transaction, then decide. A VOLATILE plpgsql function takes a fresh snapshot for each statement,
-- so the statements after the lock see every event committed by whoever held it before.
CREATE FUNCTION "rate_limit_take"(
  p_lock_namespace integer,
  p_key text,
  p_event_id text,
  p_max integer,
  p_window_ms double precision,
  p_at timestamptz
) RETURNS TABLE ("used" integer, "repeat" boolean, "added" integer, "wait_ms" double precision)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_now timestamptz;
  v_frees_from timestamptz;
BEGIN
  -- The commit need not wait for the disk: others see the event at commit either way, and a
  -- crash loses at most the last moment's events (a few extra attempts allowed).
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(p_lock_namespace, hashtext(p_key));
  -- The clock is read once the lock is held: an event is never dated before one it waited for.
  v_now := coalesce(p_at, clock_timestamp());
  -- An event at exactly now - window has left it (that makes the retry-after exact).
  DELETE FROM "rate_limit_events" AS e WHERE e."key" = p_key AND e."at" <= v_now - v_window;
  SELECT count(*)::integer, coalesce(bool_or(e."event_id" = p_event_id), false)
    INTO "used", "repeat"
    FROM "rate_limit_events" AS e WHERE e."key" = p_key AND e."at" > v_now - v_window;
  -- The limit-th newest event is the one whose leaving frees the next slot.
  SELECT e."at" INTO v_frees_from
    FROM "rate_limit_events" AS e WHERE e."key" = p_key AND e."at" > v_now - v_window
    ORDER BY e."at" DESC OFFSET greatest(p_max - 1, 0) LIMIT 1;
  "added" := 0;
  IF NOT "repeat" AND "used" < p_max THEN
    INSERT INTO "rate_limit_events" ("key", "event_id", "at") VALUES (p_key, p_event_id, v_now);
    "added" := 1;
  END IF;
  "wait_ms" := extract(epoch from (v_frees_from + v_window - v_now)) * 1000;
  RETURN NEXT;
END
$$;
