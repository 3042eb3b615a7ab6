// drizzle-kit configuration for the dashboard's tables (the sandbox has its own file).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  driver: 'pglite',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations',
  dbCredentials: { url: './data/pgdata' },
});
