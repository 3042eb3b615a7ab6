// Vitest global setup of the `postgres` project: one throwaway PostgreSQL server for the run
// (test/support/postgres-server.ts), with a database migrated through the real code paths (both
// halves' migrations) that every test file copies as its own (test/support/postgres.setup.ts).
import type { TestProject } from 'vitest/node';
import { TEST_AUDIT_SIGNING_KEY } from './audit-signing-key';
import { type PostgresServer, startPostgresServer } from './postgres-server';

export const TEMPLATE_DATABASE = 'verification_desk_template';

// The projects `postgres` and `postgres-isolated` share one server: their global setups run in the
// same process, so the first starts it and the second waits for it (kept on globalThis, since
// each project loads this module anew).
const shared = globalThis as { postgresServer?: Promise<PostgresServer>; postgresServerUsers?: number };

export default async function setup(project: TestProject) {
  shared.postgresServerUsers = (shared.postgresServerUsers ?? 0) + 1;
  shared.postgresServer ??= startServerWithTemplate();
  const server = await shared.postgresServer;
  project.provide('postgresServerUrl', server.url);
  return async () => {
    shared.postgresServerUsers = (shared.postgresServerUsers ?? 1) - 1;
    if (shared.postgresServerUsers === 0) await server.stop();
  };
}

async function startServerWithTemplate(): Promise<PostgresServer> {
  const server = await startPostgresServer();
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`create database ${TEMPLATE_DATABASE}`);
  await admin.end();

  const saved = {
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: process.env.DATA_DIR,
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET,
    AUDIT_SIGNING_KEY: process.env.AUDIT_SIGNING_KEY,
  };
  process.env.DATABASE_URL = server.url.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`);
  process.env.BETTER_AUTH_SECRET = 'template-secret-0123456789-0123456789';
  process.env.AUDIT_SIGNING_KEY = TEST_AUDIT_SIGNING_KEY;
  process.env.DATA_DIR = 'memory://';
  const { resetEnv } = await import('@/lib/env');
  resetEnv();
  const { getDb } = await import('@/lib/db');
  const { getSandboxDb } = await import('@/lib/sandbox/db');
  const { closeDatabases } = await import('@/lib/platform/database');
  await getDb();
  await getSandboxDb();
  await closeDatabases();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();

  return server;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}
