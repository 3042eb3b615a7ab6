// Runs the composition root (instrumentation-node.ts) as a real process, the way `next start`
// does at start-up, for the start-up tests: it either refuses (printing why, exit 1) or starts,
// prints {"event":"started"} and shuts down again. No HTTP server: what is under test is the
// start-up itself (configuration, the store, the setup link, the sandbox's provisioning).
//   tsx --conditions=react-server test/support/start-desk.ts
import { startVerificationDesk } from '@/instrumentation-node';
import { closeDatabases } from '@/lib/platform/database';

await startVerificationDesk();
console.log(JSON.stringify({ event: 'started' }));
await closeDatabases();
process.exit(0);
