import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the *.table.ts files. The same migration set is applied to the
// embedded database (PGlite) and to a PostgreSQL 15+ server, so only portable SQL belongs here.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/kernel/**/*.table.ts', './src/modules/**/*.table.ts'],
  out: './migrations',
});
