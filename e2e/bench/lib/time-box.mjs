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
