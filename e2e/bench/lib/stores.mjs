// The two stores the bench measures (`--store pglite|postgres|both`): the embedded PGlite data
// directory `npm start` uses by default, and a PostgreSQL server (DATABASE_URL), what several
// instances share. Each gets a fresh database, prepared by the project's CLIs exactly as an
// operator would: a sandbox company with its API key, the bench's operator account, and an administrator
// (Lighthouse's audit trail and staff pages, the data-scale phase's audit trail).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCompanyAsync, createStaffUserAsync } from '../../kit/cli.mjs';
import { startThrowawayPostgres } from '../../kit/postgres.mjs';
import { ADMIN, OPERATOR } from './server.mjs';

export const STORES = ['pglite', 'postgres'];

export const STORE_LABELS = {
  pglite: 'embedded PGlite (no DATABASE_URL)',
  postgres: 'PostgreSQL server (DATABASE_URL)',
};

/**
 * The stores named by `--store NAME` / `--store=NAME` (pglite, postgres or both; default both).
 * Throws with a message naming the bad value.
 */
export function storesFromArgs(argv) {
  const at = argv.findIndex((arg) => arg === '--store' || arg.startsWith('--store='));
  if (at === -1) return STORES;
  const value = argv[at].includes('=') ? argv[at].slice('--store='.length) : argv[at + 1];
  if (value === 'both') return STORES;
  if (STORES.includes(value)) return [value];
  throw new Error(`--store must be pglite, postgres or both, not ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
}

/**
 * A fresh store, prepared: its data directory (the server's DATA_DIR whatever the store), for
 * PostgreSQL a throwaway server, the variables the app's server and CLIs need to use it, and the
 * sandbox company's API key. Everything it starts is handed to `register` to be undone.
 */
export async function prepareStore(store, { register }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `verification-desk-bench-${store}-`));
  register(() => rmSync(dataDir, { recursive: true, force: true }));
  let env = {};
  let postgres;
  if (store === 'postgres') {
    postgres = await startThrowawayPostgres();
    register(() => postgres.stop());
    // With DATABASE_URL the auth secret must come from the environment (one for every instance).
    env = {
      DATABASE_URL: postgres.url,
      BETTER_AUTH_SECRET: randomBytes(32).toString('base64url'),
      AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    };
  }
  const company = await createCompanyAsync('Bench company', { dataDir, register, env });
  await createStaffUserAsync({ ...OPERATOR, role: 'operator' }, { dataDir, register, env });
  await createStaffUserAsync({ ...ADMIN, role: 'admin' }, { dataDir, register, env });
  return { store, dataDir, env, apiKey: company.apiKey, postgresMajorVersion: postgres?.majorVersion };
}
