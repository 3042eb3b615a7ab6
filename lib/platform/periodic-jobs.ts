// Background work inside the server process: named jobs, each run on its own timer, started
// once per process whatever the number of bundles that ask. Both halves of the app have such
// work (the sandbox's expiry sweep and purge, the dashboard's retention) and share this runner,
// so a failing run is logged the same way and a shutdown waits for runs in progress.
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

export type PeriodicJob = {
  name: string;
  /** Delay before the first run: 0 catches up at start (a server that was down). */
  firstRunAfterMs: number;
  /** Time between the end of one run and the start of the next. */
  everyMs: number;
  run: () => Promise<unknown>;
};

/** Stops the timers; resolves once a run in progress has finished. */
export type StopPeriodicJobs = () => Promise<void>;

type Slot = { stop: StopPeriodicJobs | undefined };

/**
 * Starts `jobs` under `group`, once per process: while they run, a second call returns the
 * running group's stop function. A timer is rescheduled only after its run has finished, so runs
 * never pile up behind a slow database; timers are unref'd and never keep the process alive.
 */
export function startPeriodicJobs(group: string, jobs: readonly PeriodicJob[]): StopPeriodicJobs {
  const slot = processSingleton<Slot>(`jobs.${group}`, () => ({ stop: undefined }));
  if (slot.stop) return slot.stop;

  const log = logger.child({ area: group });
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const schedule = (job: PeriodicJob, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = job.run().then(
        () => undefined,
        (error: unknown) => log.error({ err: error, job: job.name }, `${group} job failed`),
      );
      inFlight.add(run);
      void run.finally(() => {
        inFlight.delete(run);
        if (!stopped) schedule(job, job.everyMs);
      });
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };
  for (const job of jobs) schedule(job, job.firstRunAfterMs);

  const stop: StopPeriodicJobs = async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (slot.stop === stop) slot.stop = undefined;
    await Promise.allSettled([...inFlight]);
  };
  slot.stop = stop;
  return stop;
}
