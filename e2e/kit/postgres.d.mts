// Types of postgres.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export type { PostgresServer } from '../../test/support/postgres-server';

export function startThrowawayPostgres(): Promise<import('../../test/support/postgres-server').PostgresServer>;
