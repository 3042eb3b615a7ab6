// The durable, ordered log of status changes (table live_events) that every instance's open
// streams are fed from. Writing: an event is inserted and announced on the `live_events` channel
// in one transaction, under a transaction-level advisory lock, so ids are handed out in commit
// order: a reader that has seen id N and reads `id > N` can never later meet a smaller id that
// committed after its read. That is what lets an instance that missed notifications (its
// listening connection was lost) catch up exactly, and a browser replay on any instance.
import 'server-only';
import { sql } from 'drizzle-orm';
import { LIVE_EVENTS_LOCK } from '@/lib/platform/advisory-locks';
import { type PurgeBatchOptions, purgeInBatches } from '@/lib/platform/batched-purge';
import { type Database, rowsOf } from '@/lib/platform/database';
import { sendSignal } from '@/lib/platform/database-signals';
import type { VerificationChange } from './protocol';

export type LiveEvent = VerificationChange & { id: number };

/** The channel that says "the log has new rows" (the payload is the new id, for logs only). */
export const LIVE_EVENTS_CHANNEL = 'live_events';

/** A database handle or a transaction on one: all the log needs is raw SQL. */
export type SqlRunner = Pick<Database<Record<string, unknown>>, 'execute'>;

type EventRow = { id: number | string; verification_id: string; status: string };

function toEvent(row: EventRow): LiveEvent {
  // node-postgres returns bigint as a string; the ids stay far below 2^53.
  return { id: Number(row.id), verificationId: row.verification_id, status: row.status };
}

/**
 * Appends a change to the log and notifies every instance. Call it as the last statement of the
 * transaction that made the change: the lock it takes is held until that transaction ends, and
 * the event (like the notification) exists only if the change commits.
 */
export async function appendLiveEvent(tx: SqlRunner, change: VerificationChange): Promise<LiveEvent> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LIVE_EVENTS_LOCK})`);
  const [row] = rowsOf<EventRow>(
    await tx.execute(
      sql`insert into live_events (verification_id, status) values (${change.verificationId}, ${change.status}) returning id, verification_id, status`,
    ),
  );
  const event = toEvent(row!);
  await sendSignal(tx, LIVE_EVENTS_CHANNEL, String(event.id));
  return event;
}

/** Up to `limit` events after `afterId`, oldest first. */
export async function readEventsAfter(db: SqlRunner, afterId: number, limit: number): Promise<LiveEvent[]> {
  const rows = rowsOf<EventRow>(
    await db.execute(sql`select id, verification_id, status from live_events where id > ${afterId} order by id limit ${limit}`),
  );
  return rows.map(toEvent);
}

/** The oldest and newest ids still in the log (null when it is empty). */
export async function logBounds(db: SqlRunner): Promise<{ oldest: number | null; newest: number | null }> {
  const [row] = rowsOf<{ oldest: number | string | null; newest: number | string | null }>(
    await db.execute(sql`select min(id) as oldest, max(id) as newest from live_events`),
  );
  return {
    oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    newest: row?.newest === null || row?.newest === undefined ? null : Number(row.newest),
  };
}

/**
 * Deletes the events older than `before`, as a prefix of the log (everything up to the newest
 * old one), and always keeps the newest event: the oldest id left is what tells a browser that
 * was away too long that it missed events (replayAfter), so the log must never empty
 * itself and forget where it stood. Returns how many went.
 */
export async function purgeLiveEventsBefore(db: SqlRunner, before: Date, options?: PurgeBatchOptions): Promise<number> {
  return purgeInBatches(async (limit) => {
    const rows = rowsOf<{ id: number | string }>(
      await db.execute(sql`
        delete from live_events
        where id in (
          select id from live_events
          where id <= (select max(id) from live_events where at < ${before.toISOString()})
            and id < (select max(id) from live_events)
          order by id
          limit ${limit})
        returning id`),
    );
    return rows.length;
  }, options);
}

/** Replayed to a reconnecting browser at most; one that missed more is told to resync instead. */
export const REPLAY_LIMIT = 500;

export type Replay = {
  /** Events after the given id, oldest first. */
  events: LiveEvent[];
  /** True when events after that id can no longer all be replayed: the browser must resync. */
  missed: boolean;
  /** The newest id the answer covers: where a resyncing browser continues from. */
  newestId: number;
};

/**
 * What a browser that last saw `lastEventId` has missed, from the log, so any instance can
 * answer it. An id the log never gave out (from another database, or made up) or one older than
 * the log still holds gets `missed`: nothing can be replayed against it with certainty.
 */
export async function replayAfter(db: SqlRunner, lastEventId: number): Promise<Replay> {
  const { oldest, newest } = await logBounds(db);
  const head = newest ?? 0;
  const missed: Replay = { events: [], missed: true, newestId: head };
  if (!Number.isSafeInteger(lastEventId) || lastEventId < 0 || lastEventId > head) return missed;
  if (oldest !== null && lastEventId < oldest - 1) return missed;
  const events = await readEventsAfter(db, lastEventId, REPLAY_LIMIT + 1);
  if (events.length > REPLAY_LIMIT) return missed;
  return { events, missed: false, newestId: Math.max(head, events.at(-1)?.id ?? 0) };
}
