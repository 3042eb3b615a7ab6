// @ts-check
// A throwaway PostgreSQL server for the harness's plain-JavaScript scripts (the bench, the load
// test): the very one the Vitest suites start (test/support/postgres-server.ts: a fresh cluster
// from the machine's binaries, a free loopback port, removed on stop), loaded through tsx so that
// how to start one is written once.
import { tsImport } from 'tsx/esm/api';

/** @typedef {import('./postgres.d.mts').PostgresServer} PostgresServer */

/** @returns {Promise<PostgresServer>} */
export async function startThrowawayPostgres() {
  /** @type {{ startPostgresServer: () => Promise<PostgresServer> }} */
  const module = await tsImport('../../test/support/postgres-server.ts', import.meta.url);
  return module.startPostgresServer();
}
