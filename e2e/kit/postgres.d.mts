// Types of postgres.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export type { PostgresServer } from '../../lib/testing/postgres-server';

export function startThrowawayPostgres(): Promise<import('../../lib/testing/postgres-server').PostgresServer>;
