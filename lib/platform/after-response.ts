// Work a request causes but its answer does not need (bringing the register up to date after a
// create or a read) runs once the answer has gone out: the work shares the process's one thread,
// so any time spent on it before the answer is time staff wait.
import 'server-only';
import { after } from 'next/server';

/**
 * Runs `task` after the current response has been sent (Next.js `after`). Outside a request —
 * a CLI, a background job, a unit test — there is no response to wait for, and it starts now.
 * Failures are the task's own business: nothing is awaited or rethrown.
 */
export function afterResponse(task: () => Promise<unknown>): void {
  const run = () => task().catch(() => undefined);
  try {
    after(run);
  } catch {
    // `after` refuses to be called outside a request scope.
    void run();
  }
}
