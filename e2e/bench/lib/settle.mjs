// Waiting for the machine to quieten down before a phase that scores pages (Lighthouse): the load
// phases leave processes busy for a while after them (the server's garbage collection, the
// database's checkpoints), and Lighthouse would score that instead of the pages.
import os from 'node:os';
import { loadAverage } from '../notes.mjs';

/**
 * Waits until the 1-minute load average is below `below` (at least 1, half of a 2-core machine),
 * or `maxMs` has passed, whichever comes first; returns the load average then, as the report shows it.
 */
export async function loadSettled({ below, maxMs = 90_000 }) {
  const threshold = Math.max(1, below);
  const until = performance.now() + maxMs;
  while (os.loadavg()[0] >= threshold && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 2_000));
  return loadAverage();
}
