// Time boxes, so that one deadline bounds the whole run however loaded the machine is.
// A box has `soft`, the phase's fair share of the time left; `hard`, the last moment at which any
// phase may still take a sample without endangering the deadline; and `min`, the samples a
// figure takes even past its share (while before `hard`), so a slow build or a busy machine
// leaves it with fewer samples, reported as such, but not with one or two.

/** May a phase that has taken `done` samples take another? */
export function more(box, done) {
  const now = performance.now();
  return now < box.soft || (done < box.min && now < box.hard);
}

/** Warm-ups are short and must not push the measurement itself out of its box. */
export const warmingAllowed = (box) => performance.now() < box.soft;

// Each measuring phase gets a share of what is left before its
// store's deadline (minus a reserve for reporting and cleanup, and the fixed-length throughput figure), in
// proportion to its weight ≈ its full duration in seconds on a busy 2-core machine (on an idle
// one every phase ends well inside its share); a phase that finishes early leaves
// its time to the later ones. Past its share a phase still takes its minimum of samples while
// the deadline allows. On a loaded machine figures are then taken on fewer samples (reported as
// such) instead of the run being killed with none.
export const RESERVE_MS = 12_000;
/**
 * The throughput figure's fixed length (figures/throughput.mjs): six autocannon runs, three of
 * 10 s and three of 5 s, each after 2 s of warm-up (57 s), the event stream's settling (up to
 * 5 s) and each run's process start, with a margin: 65 s measured on a busy machine.
 */
export const THROUGHPUT_MS = 72_000;
const PHASES = {
  read: { weight: 30, min: 100 },
  create: { weight: 35, min: 40 },
  ttfb: { weight: 5, min: 20 },
  js: { weight: 9, min: 5 },
  click: { weight: 18, min: 5 },
  detail: { weight: 10, min: 5 },
  live: { weight: 20, min: 100 },
  lighthouse: { weight: 150, min: 14 },
};

/** The box of `phase` within a store's `deadline`. */
export function timeBox(phase, deadline) {
  const names = Object.keys(PHASES);
  const later = names.slice(names.indexOf(phase)).reduce((sum, name) => sum + PHASES[name].weight, 0);
  // Lighthouse comes after the fixed-length throughput figure; every other phase comes before it.
  const hard = deadline.endAt - RESERVE_MS - (phase === 'lighthouse' ? 0 : THROUGHPUT_MS);
  const share = (Math.max(0, hard - performance.now()) * PHASES[phase].weight) / later;
  return { soft: performance.now() + share, hard, min: PHASES[phase].min };
}
