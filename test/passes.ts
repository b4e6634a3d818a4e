/**
 * CI runs `npm test` twice (.ci/run): on the embedded database, then with TEST_DATABASE_URL on a
 * PostgreSQL server. The files below test something the database cannot change: they open none of
 * the run's (drawing PDFs, the service as a process on an embedded database of its own, the
 * README's walk), or their app's database only serves what they look at (the OpenAPI document and
 * its reference page, the pages' words in three languages, the headers and links of the pages over
 * plain HTTP, all of whose pages the other page tests also open on PostgreSQL). The second pass
 * would run the same code again; it lists each as skipped, with the reason, and balances its shards
 * without them (test/shards/shards.ts). docs/development.md, "Tests".
 */
export const EMBEDDED_PASS_ONLY: Readonly<Record<string, string>> = {
  'src/main.test.ts': 'the service process on an embedded database of its own',
  'test/readme.test.ts': "the README's walk, on the embedded database a newcomer gets",
  'src/modules/events/certificates/certificate.pdf.test.ts': 'drawing certificate PDFs, no database',
  'src/modules/events/badges/badges.pdf.test.ts': 'drawing badge PDFs, no database',
  'src/system/docs.test.ts': 'the OpenAPI document, built from the routes',
  'src/system/docs.browser.test.ts': 'the API reference page, built from the OpenAPI document',
  'src/modules/events/pages/pages-languages.browser.test.ts':
    "the pages' words in three languages; the pages themselves run on PostgreSQL in the other page tests",
  'src/modules/events/pages/pages-plain-http.browser.test.ts':
    "the pages' headers and links over plain HTTP; the pages themselves run on PostgreSQL in the other page tests",
};

/** Whether this run is the PostgreSQL pass (TEST_DATABASE_URL set). */
export const isServerPass = (): boolean => Boolean(process.env.TEST_DATABASE_URL);
