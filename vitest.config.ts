import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The suites whose behaviour depends on the store run a second time on a real PostgreSQL server
 * (the `postgres` project): several instances sharing the data, transactions that really run at
 * the same time, row locks and advisory locks, LISTEN/NOTIFY, the pool, and SQL whose results
 * depend on the server's settings (timestamps printed as text for the exports' cursors). Suites of
 * logic, HTTP shapes and validation, which run the same SQL in one connection on either store,
 * run on PGlite only; so do suites about the embedded store itself (its lock, its data directory,
 * the CLIs' refusal while a server holds it).
 */
export const POSTGRES_SUITES = [
  'app/api/events/route.test.ts',
  'app/api/exports/*/route.test.ts',
  'app/api/verifications/*/evidence/route.test.ts',
  'lib/export/register-export.test.ts',
  'app/api/ready/outage.test.ts',
  'app/api/ready/route.test.ts',
  'app/api/webhooks/verification-service/route.test.ts',
  'lib/account/own-sessions.test.ts',
  'lib/auth/session-bound.test.ts',
  'lib/audit/chain/chain.test.ts',
  'lib/auth/session-cache.test.ts',
  'lib/auth/sessions-across-instances.test.ts',
  'lib/auth/setup.test.ts',
  'lib/auth/sign-in-link.test.ts',
  'lib/auth/throttle.test.ts',
  'lib/auth/two-factor/wrong-codes.test.ts',
  'lib/cli/admin-clis-shared-store.test.ts',
  'lib/cli/data.test.ts',
  'lib/cli/start-up.test.ts',
  'lib/live/**/*.test.ts',
  'lib/platform/periodic-jobs*.test.ts',
  'lib/platform/shared-rate-limit*.test.ts',
  'lib/sandbox/admin/api-keys.test.ts',
  'lib/sandbox/api/create-verification-concurrency.test.ts',
  'lib/sandbox/records/*.test.ts',
  'lib/sandbox/webhook-sender/delivery.test.ts',
  'lib/staff/invitations/invitations.test.ts',
  'lib/staff/staff-accounts.test.ts',
  // The register's and the requests' SQL; the rooms' pure logic (schemas, phone numbers, the
  // lookup's input, the register's filter, the name comparison) runs on PGlite only.
  'lib/verifications/create/{create-verification,link-copy-audit,rate-limit,rate-limit-events,record-link-copied-action}.test.ts',
  'lib/overview/figures.test.ts',
  'lib/verifications/assignment/*.test.ts',
  'lib/verifications/evidence/pack.test.ts',
  'lib/verifications/follow-up/*.test.ts',
  'lib/verifications/queue/*.test.ts',
  'lib/verifications/notes/notes.test.ts',
  'lib/verifications/lookup.test.ts',
  'lib/verifications/record/*.test.ts',
  'lib/verifications/register/{cache,list-columns,pages,queries,result-count,retention,search-index,writes}.test.ts',
  'lib/verifications/review/{name-review,needs-review}.test.ts',
  'lib/verifications/timeline/*.test.ts',
  'lib/webhook-receiver/*.test.ts',
];

/**
 * Suites that stand in for a module with `vi.mock` (the session, outside a Next.js request). A
 * stand-in lives in the module cache, so these run isolated, each file with modules of its own;
 * every other suite shares its worker's modules with the files before it (`isolate: false`), which
 * halves the suite's time: the heavy imports (better-auth, Drizzle, PGlite, zod, next-intl) load
 * once per worker instead of once per file. A file that changes the environment or a module's
 * state puts it back in its own hooks.
 */
export const MOCKING_SUITES = [
  'lib/auth/form-action.test.ts',
  'lib/auth/two-factor/enrolment-guard.test.ts',
  'lib/forms/dashboard-form-actions.test.ts',
  'lib/verifications/create/record-link-copied-action.test.ts',
  'lib/verifications/notes/notes.test.ts',
  'lib/verifications/review/name-review.test.ts',
];

const ALL_SUITES = ['{app,components,lib}/**/*.test.{ts,tsx}'];

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // `server-only` throws outside React's server condition; in tests every module is server-side.
      'server-only': fileURLToPath(new URL('./test/support/empty-module.ts', import.meta.url)),
      // next-intl's server half needs Next's request scope; tests choose the language themselves.
      'next-intl/server': fileURLToPath(new URL('./test/support/next-intl-server.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    // One worker per core: the suite is CPU-bound (PGlite, spawned CLIs), and a second worker
    // keeps the wall time down even when other work shares the cores.
    maxWorkers: 2,
    // Budgets for a contributor's busy laptop, not a quiet CI box: a test that needs longer
    // (spawned processes, databases reopened on disk) says so itself.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ALL_SUITES,
          exclude: MOCKING_SUITES,
          isolate: false,
          globalSetup: ['test/support/pglite-template.global-setup.ts'],
          setupFiles: ['test/support/pglite-template.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite-isolated',
          include: MOCKING_SUITES,
          globalSetup: ['test/support/pglite-template.global-setup.ts'],
          setupFiles: ['test/support/pglite-template.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          exclude: MOCKING_SUITES,
          isolate: false,
          globalSetup: ['test/support/postgres.global-setup.ts'],
          setupFiles: ['test/support/postgres.setup.ts'],
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-isolated',
          // The mocking suites among POSTGRES_SUITES.
          include: [
            'lib/verifications/create/record-link-copied-action.test.ts',
            'lib/verifications/notes/notes.test.ts',
            'lib/verifications/review/name-review.test.ts',
          ],
          globalSetup: ['test/support/postgres.global-setup.ts'],
          setupFiles: ['test/support/postgres.setup.ts'],
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
