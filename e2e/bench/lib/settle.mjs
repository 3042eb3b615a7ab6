// Waiting for the machine to quieten down before a phase that scores pages (Lighthouse): the load
// phases leave processes busy for a while after them (the server's garbage collection, the
// database's checkpoints), and Lighthouse would score that instead of the pages. Lighthouse's
// mobile preset multiplies every main-thread task it observes by 4 (simulated throttling), so a
// core taken by something else shows up as blocking time the page does not have.
import os from 'node:os';
import { loadAverage } from '../notes.mjs';

/**
 * The 1-minute load average under which a 2-core machine counts as quiet: less than one core busy
 * on average, so Lighthouse's Chromium and the server each find a core free. An absolute bar, not
 * one relative to the run's start: a run that began on a busy machine would otherwise accept the
 * same busy machine as settled.
 */
export const QUIET_LOAD = 1.0;

/**
 * Waits until the 1-minute load average is below `below` or `maxMs` has passed, whichever comes
 * first; returns the load average then (as the report shows it) and whether it was quiet.
 */
export async function loadSettled({ below = QUIET_LOAD, maxMs = 120_000 } = {}) {
  const until = performance.now() + maxMs;
  while (os.loadavg()[0] >= below && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 2_000));
  return { loadAverage: loadAverage(), quiet: os.loadavg()[0] < below, below };
}
