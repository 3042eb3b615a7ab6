// Where a browser-test run keeps what it captured, for e2e/leak-check.spec.ts: everything the
// servers printed, and the browser's traffic as recorded by e2e/support/recording-proxy.mjs.
import path from 'node:path';
import { portFor } from './ports';

/** The recording proxy every browser of the run goes through. */
export const RECORDING_PROXY_PORT = portFor(90);

/** `server.log` of the shared server, `next-<port>.log` of each extra one. */
export const serverLogsDir = (dataDir: string) => path.join(dataDir, 'logs');

/** `traffic.jsonl` (one line per exchange) and `bodies/` (decompressed, by content hash). */
export const trafficDir = (dataDir: string) => path.join(dataDir, 'traffic');
