import { defineConfig } from 'drizzle-kit';

/** drizzle-kit reads the schema and writes versioned SQL migrations to db/migrations (committed). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  casing: 'snake_case',
});
