// The bench's run control: everything it starts registers an undo here, so that a deadline, an
// error or a signal stops it all (the servers' process groups, PostgreSQL, the build, the
// browsers), and each segment (the build, a store, the data-scale phase) gets a deadline and a
// hard stop behind it. Shared by run.mjs and what it starts, one run per process.
import { round } from './stats.mjs';

const startedAt = performance.now();
export const elapsedS = () => round((performance.now() - startedAt) / 1000, 1);
export const log = (message) => process.stderr.write(`[bench ${String(elapsedS()).padStart(5)} s] ${message}\n`);

export class DeadlineError extends Error {}
export class AbortedError extends Error {}

let aborting = false;
/** Is the bench stopping (a deadline, an error or a signal)? */
export const isAborting = () => aborting;
/** Stops of things that were registered while the bench was already stopping. */
const lateStops = [];

/** Undo actions of what is running, newest first; each entry removes itself once done. */
const cleanups = new Set();
/** Registers `undo`; returns the function that unregisters it (true if it still was registered). */
export function register(undo) {
  // Something started after the bench began to stop (main was still running): stop it now.
  if (aborting) {
    lateStops.push(
      Promise.resolve()
        .then(undo)
        .catch(() => {}),
    );
    throw new AbortedError('stopping');
  }
  const entry = { undo };
  cleanups.add(entry);
  return () => cleanups.delete(entry);
}
// Bounded: a cleanup that hangs must not keep the bench past its deadline for long.
const boundedUndo = (undo) =>
  Promise.race([
    Promise.resolve()
      .then(undo)
      .catch(() => {}),
    new Promise((r) => setTimeout(r, 6_000)),
  ]);
export async function cleanUp() {
  for (const entry of [...cleanups].reverse()) {
    cleanups.delete(entry);
    await boundedUndo(entry.undo);
  }
}
/**
 * What one store starts (its database, server, browser), undone when that store is done rather
 * than at the end, so the next store runs alone on the machine.
 */
export function cleanupScope() {
  const entries = [];
  return {
    register(undo) {
      const unregister = register(undo);
      entries.push({ undo, unregister });
      return unregister;
    },
    async close() {
      for (const { undo, unregister } of entries.reverse()) if (unregister()) await boundedUndo(undo);
    },
  };
}

/** A segment's deadline (the build's, a store's), `ms` from now. */
export function segmentDeadline(ms) {
  const startAt = performance.now();
  return {
    startAt,
    endAt: startAt + ms,
    remaining: () => startAt + ms - performance.now(),
    /** Throws unless at least `marginMs` is left, so a phase is not started that cannot finish. */
    check(marginMs = 0) {
      if (aborting) throw new AbortedError('stopping');
      if (this.remaining() < marginMs) throw new DeadlineError(`deadline of ${ms / 1000} s reached (${elapsedS()} s elapsed)`);
    },
  };
}

export async function abort(reason, code) {
  if (aborting) return;
  aborting = true;
  console.error(`\nbench: ${reason}`);
  await cleanUp();
  // A launch already under way when the stop began registers (and is stopped) a moment later.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await Promise.race([Promise.allSettled(lateStops), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  process.exit(code);
}
// The hard stop of the segment under way: whatever is awaited (a hung request, a browser), the
// run ends there. Re-armed for each segment (the build, each store).
let hardStop;
export function armHardStop(ms, what) {
  clearTimeout(hardStop);
  hardStop = setTimeout(() => abort(`${what}: deadline of ${ms / 1000} s reached; stopped everything`, 2), ms);
}
process.on('SIGINT', () => abort('interrupted (SIGINT)', 130));
// `on`, not `once`: a second Ctrl-C while cleaning up must not kill the bench half-way (abort
// runs once), and no other handler may see itself as the last SIGINT listener and exit early.
process.on('SIGTERM', () => abort('terminated (SIGTERM)', 143));
process.on('SIGHUP', () => abort('hung up (SIGHUP)', 129));
/** Disarms the hard stop once the last segment is done. */
export const disarmHardStop = () => clearTimeout(hardStop);
