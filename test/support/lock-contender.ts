// A separate process that takes a lock, for the tests of lib/platform/process-lock.ts and
// lib/platform/embedded-database.ts: a real process that can hold a lock, be killed with
// SIGKILL, or race others for one.
//   tsx --conditions=react-server test/support/lock-contender.ts lock <lock file> [--go]
//   tsx --conditions=react-server test/support/lock-contender.ts database <data dir> [--go]
// `lock` takes the lock file itself; `database` opens the data directory as the server does and
// writes one row (its pid) to the table `marks`. With --go it first prints {"event":"ready"} and
// waits for a line on stdin, so that several contenders start at the same moment. It prints
// {"event":"acquired",…} and then holds on until it is killed, or {"event":"refused",…} and exits.
// Its own lines are JSON with an "event" field; anything else on stdout is the server's logger.
import { createInterface } from 'node:readline';
import { acquireLock, LockHeldError } from '@/lib/platform/process-lock';

// The database modules (PGlite, the drivers) only for `database`: a `lock` contender starts in a
// fraction of the time without them.
const database = process.argv[2] === 'database' ? await import('@/lib/platform/embedded-database') : undefined;

const [mode, target, go] = process.argv.slice(2);
const say = (event: string, details: Record<string, unknown> = {}) => console.log(JSON.stringify({ event, pid: process.pid, ...details }));

if (go === '--go') {
  say('ready');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
}

try {
  if (mode === 'lock') {
    const lock = await acquireLock(target!, { waitMs: 0 });
    say('acquired', { tookOver: lock.tookOver });
  } else if (database) {
    const pg = await database.openDatabase(target!, { waitForLockMs: 0 });
    await pg.exec('create table if not exists marks (pid integer not null)');
    await pg.query('insert into marks (pid) values ($1)', [process.pid]);
    say('acquired');
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} catch (error) {
  if (!(error instanceof LockHeldError || (database && error instanceof database.DataDirInUseError))) throw error;
  say('refused', { message: (error as Error).message });
  await database?.closeEmbeddedDatabases();
  process.exit(0);
}
// Holds the lock until it is killed.
setInterval(() => {}, 60_000);
