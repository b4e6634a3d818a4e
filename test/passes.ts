/**
 * CI runs `npm test` twice (.ci/run): on the embedded database, then with TEST_DATABASE_URL on a
 * PostgreSQL server. A suite that opens no database of the run (drawing PDFs, a service process on
 * an embedded database of its own, the README's walk, the licence files) would run the same code
 * in both passes: it runs in the embedded pass only, and says why when the other skips it
 * (docs/development.md, "Tests").
 */
export const EMBEDDED_PASS_ONLY: string | false = process.env.TEST_DATABASE_URL
  ? 'opens no database of this run: it runs in the pass without TEST_DATABASE_URL'
  : false;
