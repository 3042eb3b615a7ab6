// A lock file that names the process holding it, so that a lock left behind by a crash can be
// taken over at once, and a refusal can say who holds it.
//
// The lock is a file whose content is its owner: pid, host name, boot id and the process's start
// time (the last two guard against a host that rebooted and a pid that was reused), when it was
// taken, and a random nonce that identifies this one holding. The owner touches the file every
// `refreshMs`.
//
// Taking the lock is one atomic step: the record is written to a private temporary file first and
// hard-linked to the lock's name, which fails if the name exists, so a lock file is never seen
// half written. When it exists, its owner is judged:
//   - same host (same name and boot id): held while the process lives (signal 0 reaches it, it is
//     no zombie, and its start time is still the recorded one), abandoned the moment it is gone;
//   - another host (a data directory on a shared disk), or a file without a readable owner (a lock
//     of an earlier version, which was a directory): held until its last touch is `staleMs` old.
// Taking over an abandoned lock is the delicate part: two contenders may judge the same lock
// abandoned at the same moment, and if both replaced it, both would believe they own it. So only
// the contender that takes a second lock, the claim, named after the exact holding it judged (its
// nonce and last touch), may replace it; it then checks that the lock is still that holding and
// renames its own record over it. The claim is taken with this same function, so a contender that
// crashed while holding a claim is itself taken over, by the same rule, one level down.
// Anyone else can only create the lock where none exists, which the link refuses while the
// abandoned one is still there: there is no moment at which two processes both hold it.
//
// The lock file's record and the checks on its owner live in process-lock-owner.ts, the atomic
// file operations in process-lock-file.ts; this module decides who may take the lock.
import { utimes } from 'node:fs/promises';
import { createExclusive, type LockHolder, readHolder, removeIfOwned, removeLeftovers, replace } from '@/lib/platform/process-lock-file';
import { heldNonces, isRunning, isThisHost, type LockOwner, newOwner } from '@/lib/platform/process-lock-owner';

export type { LockHolder } from '@/lib/platform/process-lock-file';
export type { LockOwner } from '@/lib/platform/process-lock-owner';

export class LockHeldError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(`${lockPath} is held by ${describeHolder(holder)}`);
    this.name = 'LockHeldError';
  }
}

export type HeldLock = {
  owner: LockOwner;
  /** The abandoned lock this one replaced, if any, and why it counted as abandoned. */
  tookOver: TakeOver | null;
  /** Stops refreshing and removes the lock file, if it is still this holding's. */
  release(): Promise<void>;
};

/** 'process-ended': its owner on this host no longer runs; 'stale': not touched for `staleMs`. */
export type TakeOver = { from: LockHolder; reason: 'process-ended' | 'stale' };

export type AcquireOptions = {
  /** How long to keep trying while a live owner holds the lock; 0: one try. */
  waitMs?: number;
  /** How old a lock of another host (or without an owner) must be to count as abandoned. */
  staleMs?: number;
  /** How often the owner touches its lock. */
  refreshMs?: number;
  /** Called when the lock turns out to be no longer this holding's (another host judged it stale). */
  onCompromised?: (holder: LockHolder | null) => void;
};

const RETRY_MS = 250;

/** "pid 1234 on host build-7, since 2026-11-24T10:00:00.000Z" (or why the owner is unknown). */
export function describeHolder(holder: LockHolder): string {
  const { owner } = holder;
  if (!owner) return `an unknown owner (a lock without owner details, last touched ${holder.touchedAt.toISOString()})`;
  return `pid ${owner.pid} on host ${owner.host}, since ${owner.since}`;
}

/**
 * Takes the lock file `lockPath`, taking over at once a lock whose owner has ended on this host,
 * waiting up to `waitMs` for a live one. Throws LockHeldError naming the holder.
 */
export async function acquireLock(lockPath: string, options: AcquireOptions = {}): Promise<HeldLock> {
  const { waitMs = 0, staleMs = 15_000, refreshMs = 5_000, onCompromised } = options;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await tryAcquire(lockPath, staleMs);
    if (result.acquired) {
      await removeLeftovers(lockPath);
      return holding(lockPath, result.owner, result.tookOver, refreshMs, onCompromised);
    }
    if (Date.now() >= deadline) throw new LockHeldError(lockPath, result.holder);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** How long a contender that lost the claim first waits for the takeover under way to finish. */
const TAKEOVER_SETTLE_MS = 20;

type Attempt = { acquired: true; owner: LockOwner; tookOver: TakeOver | null } | { acquired: false; holder: LockHolder };

async function tryAcquire(lockPath: string, staleMs: number): Promise<Attempt> {
  // Each pass either ends or saw the lock change under it (released, taken over by another): a
  // few passes settle it; a lock that keeps changing counts as held by whoever holds it last.
  let last: LockHolder | null = null;
  for (let pass = 0; pass < 5; pass++) {
    const owner = newOwner();
    let kept = false;
    try {
      if (await createExclusive(lockPath, owner)) {
        kept = true;
        return { acquired: true, owner, tookOver: null };
      }
      const holder = await readHolder(lockPath);
      if (!holder) continue; // released in between: try again
      last = holder;
      const reason = abandonment(holder, staleMs);
      if (!reason) return { acquired: false, holder };

      // Abandoned: only the contender holding the claim on exactly this holding may replace it.
      const claimPath = `${lockPath}.takeover-${holder.identity}`;
      const claim = await tryAcquire(claimPath, staleMs);
      if (!claim.acquired) {
        // Another contender is taking over: wait for it to finish, then judge the lock it leaves,
        // so a refusal names the lock's new owner rather than a contender that may yet lose.
        last = claim.holder;
        await new Promise((resolve) => setTimeout(resolve, TAKEOVER_SETTLE_MS * (pass + 1)));
        continue;
      }
      try {
        const current = await readHolder(lockPath);
        if (current?.identity !== holder.identity) continue; // replaced or released meanwhile: judge again
        if (await replace(lockPath, owner)) {
          kept = true;
          return { acquired: true, owner, tookOver: { from: holder, reason } };
        }
      } finally {
        await removeIfOwned(claimPath, claim.owner);
        heldNonces().delete(claim.owner.nonce);
      }
    } finally {
      if (!kept) heldNonces().delete(owner.nonce);
    }
  }
  return { acquired: false, holder: last ?? { owner: null, touchedAt: new Date(), identity: 'changing' } };
}

/** Why the lock counts as abandoned, or null while it is held. */
function abandonment(holder: LockHolder, staleMs: number): TakeOver['reason'] | null {
  const { owner } = holder;
  if (owner && isThisHost(owner)) return isRunning(owner) ? null : 'process-ended';
  return Date.now() - holder.touchedAt.getTime() > staleMs ? 'stale' : null;
}

function holding(
  lockPath: string,
  owner: LockOwner,
  tookOver: TakeOver | null,
  refreshMs: number,
  onCompromised: AcquireOptions['onCompromised'],
): HeldLock {
  let lost = false;
  const refresh = async () => {
    const current = await readHolder(lockPath).catch(() => null);
    if (current?.owner?.nonce !== owner.nonce) {
      lost = true;
      clearInterval(timer);
      onCompromised?.(current);
      return;
    }
    const now = new Date();
    await utimes(lockPath, now, now).catch(() => {});
  };
  // The timer must not keep a CLI's process alive.
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  return {
    owner,
    tookOver,
    release: async () => {
      clearInterval(timer);
      heldNonces().delete(owner.nonce);
      if (!lost) await removeIfOwned(lockPath, owner);
    },
  };
}
