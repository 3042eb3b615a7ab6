// One result of an expensive or rate-limited check, shared by every caller for a while: callers
// within `freshForMs` of a check's start get that check's result, and callers that arrive while a
// check is running wait for it rather than start their own (single flight). However many callers
// there are, the check runs at most once per window.

export type SharedResult<T> = {
  /** The current result, from the check already made or running, or from a new one once that is stale. */
  get(): Promise<T>;
};

export function createSharedResult<T>({
  check,
  freshForMs,
  now = () => Date.now(),
}: {
  /** Should settle on its own (a timeout of its own): callers wait for it. */
  check: () => Promise<T>;
  freshForMs: number;
  /** The clock, injectable for tests. */
  now?: () => number;
}): SharedResult<T> {
  let current: { result: Promise<T>; startedAt: number; settled: boolean } | undefined;

  return {
    get() {
      const at = now();
      // A running check is shared even past the window, so a slow one never overlaps a second.
      // A clock set back (the system's, or a test's fake one) would make a result look younger
      // than it is, for as long as the clock was moved: a result from "the future" is stale.
      const age = current ? at - current.startedAt : 0;
      if (current && (!current.settled || (age >= 0 && age < freshForMs))) return current.result;
      const started = { result: Promise.resolve().then(check), startedAt: at, settled: false };
      // A failure is a result like any other: kept for the window, so a failing check is not
      // retried by every caller.
      const settle = () => {
        started.settled = true;
      };
      started.result.then(settle, settle);
      current = started;
      return started.result;
    },
  };
}
