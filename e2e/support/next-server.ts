// An extra `next start` of the current production build for tests that need a configuration the
// shared server does not have, e.g. the sandbox off and the service replaced by a counting
// stand-in. Started with the harness kit (e2e/kit/server.mjs: own data directory, own process
// group, none of the shared server's service, port or data settings); what it prints is kept
// beside the shared server's log, so e2e/leak-check.spec.ts scans what every server printed.
import path from 'node:path';
import { type NextServer, startNextServer as startWithKit } from '../kit/server.mjs';
import { serverLogsDir } from './captures';

export type { NextServer };

export function startNextServer({
  port,
  dataDir,
  env = {},
  timeoutMs,
}: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<NextServer> {
  return startWithKit({ port, dataDir, env, timeoutMs, logFile: serverLogFile(port) });
}

/** `<run's data dir>/logs/next-<port>.log`, appended to by every server on that port in this run. */
function serverLogFile(port: number): string | undefined {
  const dataDir = process.env.E2E_DATA_DIR;
  return dataDir ? path.join(serverLogsDir(dataDir), `next-${port}.log`) : undefined;
}
