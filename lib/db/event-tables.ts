// What happened and what several instances share: the audit trail (who did what to which id,
// when; ids only, never names, e-mails or phones), webhook receipts, the live log of status
// changes, shared rate-limit events and periodic job leases (also used on the embedded store).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Staff user id; null when nobody is signed in (e.g. a failed sign-in for an unknown account). */
    actorId: text('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** Codes only (e.g. {"role":"operator"}); never personal data. */
    details: jsonb('details').$type<Record<string, string | number | boolean>>(),
    // The hash chain (docs/audit-chain.md). The database fills these three on every INSERT,
    // whoever writes (trigger audit_entries_chain, migration 0017): its place in the one order of
    // all instances, the hash of the entry before it, and its own hash. The defaults only make
    // them optional to an INSERT; no stored row keeps them.
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    prevHash: text('prev_hash').notNull().default(''),
    hash: text('hash').notNull().default(''),
  },
  (t) => [
    uniqueIndex('audit_entries_seq_idx').on(t.seq),
    index('audit_entries_at_idx').on(t.at),
    index('audit_entries_actor_idx').on(t.actorId, t.at),
    index('audit_entries_action_idx').on(t.action, t.at),
    // A detail page's history reads one request's entries, latest first (lib/verifications/timeline/timeline.server.ts).
    index('audit_entries_target_idx').on(t.targetId, t.at),
  ],
);

export type AuditEntryRow = typeof auditEntries.$inferSelect;

/**
 * The chain's head, one row: the last entry's place and hash, kept apart from the entries so the
 * next entry can follow the last even after retention removed every entry. The trigger locks it
 * for each INSERT, which puts every instance's entries in one order. `anchorSeq`/`anchorHash`
 * are where the retained entries start: the checkpoint that covers what retention purged.
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: smallint('id').primaryKey().default(1),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    anchorSeq: bigint('anchor_seq', { mode: 'number' }).notNull().default(0),
    anchorHash: text('anchor_hash').notNull(),
  },
  (t) => [check('audit_chain_head_one_row', sql`${t.id} = 1`)],
);

/**
 * Signed checkpoints: at `seq`, the chain's hash was `hash`, as signed at `at` by the key whose
 * fingerprint is `keyFingerprint` (Ed25519, base64 signature of the message of docs/audit-chain.md).
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  hash: text('hash').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  keyFingerprint: text('key_fingerprint').notNull(),
  signature: text('signature').notNull(),
});

/**
 * Every public key that ever signed a checkpoint, so that checkpoints signed before a rotation
 * stay verifiable and can be handed to an auditor with the current key.
 */
export const auditSigningKeys = pgTable('audit_signing_keys', {
  fingerprint: text('fingerprint').primaryKey(),
  publicKey: text('public_key').notNull(),
  firstUsedAt: timestamp('first_used_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The last check of the whole chain (one row per deployment), so that every instance shows the
 * same verdict on the audit page and in /api/ready.
 */
export const auditChainChecks = pgTable(
  'audit_chain_checks',
  {
    id: smallint('id').primaryKey().default(1),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    intact: text('intact').$type<'yes' | 'no'>().notNull(),
    /** The last entry and checkpoint proven intact. */
    verifiedSeq: bigint('verified_seq', { mode: 'number' }).notNull(),
    verifiedCheckpointSeq: bigint('verified_checkpoint_seq', { mode: 'number' }),
    /** Where the chain broke, and how (codes: changed, deleted, inserted, reordered, checkpoint…). */
    breakSeq: bigint('break_seq', { mode: 'number' }),
    breakKind: text('break_kind'),
  },
  (t) => [check('audit_chain_checks_one_row', sql`${t.id} = 1`)],
);

/**
 * Webhook deliveries received from the service, by their `webhook-id`: a duplicate (the sender
 * retrying, or two copies at once) finds its id here and is not processed again.
 */
export const webhookReceipts = pgTable(
  'webhook_receipts',
  {
    webhookId: text('webhook_id').primaryKey(),
    eventType: text('event_type').notNull(),
    verificationId: text('verification_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A detail page's history lists the notices received for its request.
  (t) => [index('webhook_receipts_verification_idx').on(t.verificationId, t.receivedAt)],
);

// ── What several instances on one PostgreSQL server share (also used on the embedded store) ──

/**
 * The live log of status changes (lib/live/bus.ts): every instance's open streams are fed from
 * it, in id order. Ids are handed out under a lock, so they increase in commit order and an
 * instance that missed notifications reads `id > last seen` to catch up; a browser's
 * Last-Event-ID replays on any instance. Ids and a status only; old rows are purged.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    verificationId: text('verification_id').notNull(),
    status: text('status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_at_idx').on(t.at)],
);

/**
 * Events counted by the shared rate limits (lib/platform/shared-rate-limit.ts): one row per
 * allowed event of a key (e.g. a staff member's creates) inside its sliding window. `eventId`
 * makes a repeat of one event (a double submission) free.
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    eventId: text('event_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_events_key_at_idx').on(t.key, t.at)],
);

/**
 * One row per periodic job (lib/platform/periodic-jobs.ts): whichever instance claims the row
 * when the job is due runs it, so a job runs once per period however many instances there are.
 * `leasedUntil` keeps a run that outlasts its period from starting again elsewhere; a run whose
 * instance died frees the job when the lease ends.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  /** The instance that last ran it (host and pid), for an operator reading the table. */
  lastRunBy: text('last_run_by'),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
});
