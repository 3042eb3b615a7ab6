// The bench's own production server, started with the harness kit (e2e/kit/server.mjs) on a data
// directory the project's CLIs prepared (a sandbox company with its API key, an operator
// account). Configured like a real deployment pointed at a service rather than in zero-config
// mode — the sandbox is on and the dashboard talks to it over loopback with the CLI's key — so
// the bench knows the API key and the webhook secret and can play both the service's client and
// the service's webhook sender.
import { sandboxServerEnv, startNextServer } from '../../kit/server.mjs';

export const OPERATOR = { email: 'bench.operator@example.com', password: 'bench-operator-password', name: 'Bench Operator' };
/** The administrator: Lighthouse's audit trail and staff pages, and the data-scale phase's audit trail, are theirs. */
export const ADMIN = { email: 'bench.admin@example.com', password: 'bench-admin-password', name: 'Bench Admin' };

/**
 * Starts the server and waits until it serves. `register(stop)` is called as soon as the process
 * exists, before it is ready, so an interruption at any point still stops it.
 */
export function startServer({ port, dataDir, storeEnv = {}, apiKey, webhookSecret, register }) {
  return startNextServer({
    port,
    dataDir,
    env: {
      ...sandboxServerEnv({ port, apiKey, webhookSecret }),
      // The store's variables (DATABASE_URL and the auth secret it requires), none for PGlite.
      ...storeEnv,
      // The bench creates hundreds of requests a minute as one operator with one key: lift both
      // limits (their own tests cover them); what is measured is the work, not the refusal.
      CREATE_RATE_LIMIT_PER_MINUTE: '10000',
      READ_RATE_LIMIT_PER_MINUTE: '1000000',
      SANDBOX_RATE_LIMIT_PER_MINUTE: '10000000',
    },
    nodeArgs: cpuProfileArgs(),
    register,
    // The server logs under load; the end is what an error report needs.
    outputLimit: 200_000,
    busyHint: 'set BENCH_PORT to another port in 3500-3599',
  });
}

// BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (for finding why
// a figure is slow; open it in Chrome DevTools). Node refuses --cpu-prof in NODE_OPTIONS.
function cpuProfileArgs() {
  if (!process.env.BENCH_CPU_PROF) return [];
  return [
    '--cpu-prof',
    `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
    ...(process.env.BENCH_CPU_PROF_INTERVAL ? [`--cpu-prof-interval=${process.env.BENCH_CPU_PROF_INTERVAL}`] : []),
  ];
}
