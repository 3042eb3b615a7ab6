// drizzle-kit configuration for the embedded sandbox service's tables (schema `sandbox`).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  driver: 'pglite',
  schema: './lib/sandbox/schema.ts',
  out: './lib/sandbox/migrations',
  schemaFilter: ['sandbox'],
  dbCredentials: { url: './data/pgdata' },
});
