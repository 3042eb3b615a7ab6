// The chain's check, the same for the server's periodic job (over the database) and the offline
// verifier (over a JSON Lines export): fed the anchor, the signed checkpoints and then the entries
// in their order, it finds the first place where the chain breaks and says how, or how far it is
// intact. It holds one short prefix per hash seen, so a chain of millions streams through it.
import type { KeyObject } from 'node:crypto';
import { type Checkpoint, checkpointSignature } from './checkpoint';
import { type ChainEntry, entryHash } from './entry';

/**
 * Where the retained entries start: the last purged entry's place and hash (seq 0 and 64 zeros
 * when nothing was purged). The first checkpoint at or after it attests it.
 */
export type ChainAnchor = { seq: number; hash: string };

export type ChainBreakKind =
  /** The entry's content no longer gives its hash, or its place was renumbered. */
  | 'changed'
  /** The entry an entry follows is missing (also: entries missing after the last one, up to a checkpoint or the head). */
  | 'deleted'
  /** An entry that is not part of the chain sits between two that are. */
  | 'inserted'
  /** An entry comes before the one it follows. */
  | 'reordered'
  /** A checkpoint's signature does not verify, or names a key not given. */
  | 'checkpoint-signature'
  /** The chain at a checkpoint's place has another hash than the one signed: rewritten since. */
  | 'checkpoint-mismatch'
  /** The retained entries start after a purge, but no signed checkpoint at or after that place was reached to attest it. */
  | 'anchor-unsigned';

export type ChainBreak = {
  kind: ChainBreakKind;
  /** The place in the chain where it breaks. */
  seq: number;
  /** The entry found there, when there is one. */
  entryId?: string;
  /** For a checkpoint: its place. */
  checkpointSeq?: number;
};

export type ChainVerdict = {
  intact: boolean;
  anchor: ChainAnchor;
  /** How many retained entries were read. */
  entries: number;
  /** The last place proven intact (the anchor's when none). */
  verifiedSeq: number;
  /** The last checkpoint at or before verifiedSeq whose signature holds and whose hash matches. */
  lastCheckpoint: Checkpoint | null;
  /** Entries after the last checkpoint: linked, not yet signed. */
  unsignedEntries: number;
  break: ChainBreak | null;
};

/** How much of a hash identifies it among those seen: 64 bits, ample for any chain's length. */
const HASH_KEY_LENGTH = 16;

export class ChainVerifier {
  private readonly checkpoints: Map<number, Checkpoint>;
  private readonly seen = new Map<string, number>();
  private lastSeq: number;
  private lastHash: string;
  private count = 0;
  private lastCheckpoint: Checkpoint | null = null;
  private failure: ChainBreak | null = null;
  /** A link broken by an entry whose predecessor was not seen before: it may still come later (reordered). */
  private pending: { hashKey: string; seq: number; entryId: string } | null = null;

  constructor(
    private readonly anchor: ChainAnchor,
    checkpoints: readonly Checkpoint[],
    private readonly keys: ReadonlyMap<string, KeyObject>,
  ) {
    this.checkpoints = new Map(checkpoints.map((checkpoint) => [checkpoint.seq, checkpoint]));
    this.lastSeq = anchor.seq;
    this.lastHash = anchor.hash;
    this.seen.set(anchor.hash.slice(0, HASH_KEY_LENGTH), anchor.seq);
    for (const checkpoint of [...checkpoints].sort((a, b) => a.seq - b.seq)) {
      const signature = checkpointSignature(checkpoint, keys);
      if (signature !== 'valid') {
        this.fail({ kind: 'checkpoint-signature', seq: checkpoint.seq, checkpointSeq: checkpoint.seq });
        break;
      }
    }
    // A checkpoint at the anchor itself attests it at once; otherwise the first one after it does,
    // since its hash commits to every hash before it, the anchor's included.
    const atAnchor = anchor.seq > 0 ? this.checkpoints.get(anchor.seq) : undefined;
    if (!this.failure && atAnchor) {
      if (atAnchor.hash !== anchor.hash) this.fail({ kind: 'checkpoint-mismatch', seq: anchor.seq, checkpointSeq: anchor.seq });
      else this.lastCheckpoint = atAnchor;
    }
  }

  /** Reads the next entry in the chain's order; false once the chain is known broken (stop feeding). */
  push(entry: ChainEntry): boolean {
    if (this.failure) return false;
    const hashKey = entry.hash.slice(0, HASH_KEY_LENGTH);
    if (this.pending) {
      // Past a broken link, read on only to learn whether the missing predecessor turns up later.
      if (hashKey === this.pending.hashKey) {
        this.fail({ kind: 'reordered', seq: this.pending.seq, entryId: this.pending.entryId });
        return false;
      }
      return true;
    }
    const place = this.lastSeq + 1;
    if (entryHash(entry) !== entry.hash) return this.fail({ kind: 'changed', seq: place, entryId: entry.id });
    if (entry.prev !== this.lastHash) {
      const earlier = this.seen.get(entry.prev.slice(0, HASH_KEY_LENGTH));
      if (earlier !== undefined) {
        // What sat between that entry and this one was never part of the chain.
        this.lastSeq = earlier;
        return this.fail({ kind: 'inserted', seq: earlier + 1 });
      }
      this.pending = { hashKey: entry.prev.slice(0, HASH_KEY_LENGTH), seq: place, entryId: entry.id };
      return true;
    }
    if (entry.seq !== place) return this.fail({ kind: 'changed', seq: place, entryId: entry.id });
    const checkpoint = this.checkpoints.get(place);
    if (checkpoint) {
      if (checkpoint.hash !== entry.hash) return this.fail({ kind: 'checkpoint-mismatch', seq: place, checkpointSeq: place });
      this.lastCheckpoint = checkpoint;
    }
    this.seen.set(hashKey, place);
    this.lastSeq = place;
    this.lastHash = entry.hash;
    this.count++;
    return true;
  }

  /**
   * The verdict once every entry was pushed. `head`, when known (the database's head row, or the
   * export's), is where the chain should end: entries missing at its end show as deleted.
   */
  finish(head?: ChainAnchor): ChainVerdict {
    if (!this.failure && this.pending) this.fail({ kind: 'deleted', seq: this.pending.seq, entryId: this.pending.entryId });
    if (!this.failure && this.anchor.seq > 0 && !this.lastCheckpoint) this.fail({ kind: 'anchor-unsigned', seq: this.anchor.seq });
    if (!this.failure) {
      const signedBeyond = [...this.checkpoints.keys()].filter((seq) => seq > this.lastSeq).sort((a, b) => a - b)[0];
      if (signedBeyond !== undefined) this.fail({ kind: 'deleted', seq: this.lastSeq + 1, checkpointSeq: signedBeyond });
      else if (head && (head.seq !== this.lastSeq || head.hash !== this.lastHash)) {
        this.fail({ kind: head.seq > this.lastSeq ? 'deleted' : 'changed', seq: Math.min(head.seq, this.lastSeq) + 1 });
      }
    }
    const signedUpTo = this.lastCheckpoint?.seq ?? this.anchor.seq;
    return {
      intact: this.failure === null,
      anchor: this.anchor,
      entries: this.count,
      verifiedSeq: this.lastSeq,
      lastCheckpoint: this.lastCheckpoint,
      unsignedEntries: Math.max(0, this.lastSeq - signedUpTo),
      break: this.failure,
    };
  }

  private fail(failure: ChainBreak): false {
    this.failure ??= failure;
    return false;
  }
}
