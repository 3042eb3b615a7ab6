// Vitest setup file of the `postgres` project, run in each test file's worker: the file gets a
// database of its own, a copy of the migrated template (CREATE DATABASE … TEMPLATE copies it in
// milliseconds), and DATABASE_URL points the code under test at it. Files run in parallel and
// never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { TEST_AUDIT_SIGNING_KEY } from './audit-signing-key';
import { TEMPLATE_DATABASE } from './postgres.global-setup';

const serverUrl = inject('postgresServerUrl');
const name = `verification_desk_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
try {
  await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
} finally {
  await admin.end();
}
process.env.DATABASE_URL = serverUrl.replace(/\/postgres$/, `/${name}`);
// Required with DATABASE_URL (lib/env.ts); a test that needs its own sets another.
process.env.BETTER_AUTH_SECRET ??= 'test-secret-for-the-postgres-project-0123456789';
process.env.AUDIT_SIGNING_KEY ??= TEST_AUDIT_SIGNING_KEY;

// The file's pool and listening connection would otherwise keep its worker alive after the last test.
afterAll(async () => {
  const { closeDatabases } = await import('@/lib/platform/database');
  await closeDatabases();
});
