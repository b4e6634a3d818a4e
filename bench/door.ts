/**
 * The door suite of `npm run bench` (`BENCH_SUITES=door`): the console's door in real browsers
 * (issue 32). Four scanners (Chromium pages, each signed in through a local OpenID provider as
 * door staff) check badges in at 2 scans/s each, online, on loopback. Each page measures, in its
 * own performance timeline, from the code handed to the door to its answer painted on screen (the
 * `convene:door-scan` measure of web/console/src/screens/scan.tsx). Target: p95 < 300 ms.
 * Reported beside the bare check-in API in the same run: the same four scanners' rate of
 * `POST /editions/{id}/check-ins` sent from Node with a staff token, other badges, no browser.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_door`), the OpenID provider, the service on both;
 *   2. seed through the API (bench/attendance.ts): an edition under way, BENCH_DOOR_PEOPLE badges;
 *   3. four browser contexts sign in as door staff, are made staff of the event, and open the door;
 *   4. the API alone: four workers at 2 scans/s for BENCH_DOOR_DURATION s, each scan timed;
 *   5. the door: each page types (submits) a new badge's code every 500 ms in the page itself for
 *      the same time, then hands back its measures and the answers shown;
 *   6. the table and the verdict; stop everything, drop the database; 1 if the target failed.
 *
 * Typing, not the camera: the time from a decoded code to the painted answer is the same path once
 * the code is known, and a fake camera would pace the scans at the video's speed, not 2/s.
 *
 * Environment (all optional): BENCH_DOOR_PEOPLE (badges, 1000), BENCH_DOOR_DURATION (s, 30),
 * BENCH_DOOR_SCANNERS (4), and BENCH_DATABASE_URL, BENCH_DATABASE_NAME, BENCH_PORT as for the
 * other suites.
 */
/// <reference path="../test/types/oidc-provider.d.ts" />
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../test/browser.ts';
import { ensureConsoleBuilt } from '../test/console-build.ts';
import { startOidcProvider } from '../test/oidc-provider.ts';
import { seedAttendance } from './attendance.ts';
import {
  beginSuite,
  callApi,
  cleanUp,
  common,
  log,
  logLoad,
  positiveInteger,
  printTable,
  sleep,
  startService,
} from './lib.ts';

const TARGET = { scanners: 4, scansPerSecond: 2, maxP95Ms: 300 };

const settings = {
  people: positiveInteger('BENCH_DOOR_PEOPLE', 1_000),
  durationS: positiveInteger('BENCH_DOOR_DURATION', 30),
  scanners: positiveInteger('BENCH_DOOR_SCANNERS', TARGET.scanners),
  databaseName: `${common.databaseName}_door`,
};
const INTERVAL_MS = 1000 / TARGET.scansPerSecond;
const STAFF_EMAIL = 'door-console@bench.example';

interface Timings {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

function timingsOf(durations: number[]): Timings {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? Number.NaN };
}

/** Hands out each badge once across everything that scans. */
function badgeDispenser(urls: string[]) {
  let next = 0;
  return (count: number) => {
    if (next + count > urls.length) throw new Error(`BENCH_DOOR_PEOPLE (${urls.length}) is too few badges`);
    next += count;
    return urls.slice(next - count, next);
  };
}

/** The API alone: `scanners` workers, each a scan every INTERVAL_MS, every answer timed. */
async function apiScans(base: string, editionId: string, token: string, badges: string[][]) {
  const durations: number[] = [];
  const results = new Map<string, number>();
  await Promise.all(
    badges.map(async (codes) => {
      const startedAt = performance.now();
      for (const [index, code] of codes.entries()) {
        const due = startedAt + index * INTERVAL_MS;
        await sleep(Math.max(0, due - performance.now()));
        const sent = performance.now();
        const response = await fetch(`${base}/editions/${editionId}/check-ins`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ code }),
        });
        const body = (await response.json()) as { data?: { result?: string } };
        durations.push(performance.now() - sent);
        const result = body.data?.result ?? `HTTP ${response.status}`;
        results.set(result, (results.get(result) ?? 0) + 1);
      }
    }),
  );
  return { timings: timingsOf(durations), results };
}

/** One page's scans, driven inside the page: a code submitted every INTERVAL_MS, as a scanner types. */
async function pageScans(page: Page, codes: string[]) {
  return (await page.evaluate(
    `(async ({ codes, interval }) => {
      performance.clearMeasures('convene:door-scan');
      const field = document.getElementById('scan-code');
      const form = field.form;
      const startedAt = performance.now();
      for (let index = 0; index < codes.length; index += 1) {
        const due = startedAt + index * interval;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        field.value = codes[index];
        form.requestSubmit();
      }
      // The last answers painted.
      const deadline = performance.now() + 10000;
      while (performance.getEntriesByName('convene:door-scan').length < codes.length && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return {
        durations: performance.getEntriesByName('convene:door-scan').map((entry) => entry.duration),
        shown: Number(document.querySelector('.scan-result')?.getAttribute('data-scans') ?? 0),
        last: document.querySelector('.scan-result')?.getAttribute('data-result') ?? null,
      };
    })(${JSON.stringify({ codes, interval: INTERVAL_MS })})`,
  )) as { durations: number[]; shown: number; last: string | null };
}

/** A browser context of its own, signed in as the door staff through the provider. */
async function signedIn(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Account').fill('door-console');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
  return page;
}

export async function runDoor(): Promise<number> {
  const started = Date.now();
  // The service serves the console from its build (build/console/, outside git), as `npm start` does.
  ensureConsoleBuilt();
  let browser: Browser | undefined;
  const idp = await startOidcProvider();
  try {
    // 1. database, provider, service
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `door: ${settings.scanners} scanners × ${TARGET.scansPerSecond} scans/s for ${settings.durationS} s, ` +
        `in Chromium and through the API alone`,
    );
    const base = `http://127.0.0.1:${servicePort}`;
    await idp.allowRedirectsTo(base);
    idp.addAccount({ id: 'door-console', email: STAFF_EMAIL, name: 'Door Console' });
    // Development, not production: production signs people in only through an https provider, and
    // this one is on loopback over http. The routes measured run the same code either way.
    await startService(databaseUrl, servicePort, signer.publicJwks, { ...idp.env, NODE_ENV: 'development' });
    log('service ready');

    // 2. seed
    const seeded = await seedAttendance(base, signer, settings.people);
    const take = badgeDispenser(seeded.badgeUrls);
    const perScanner = settings.durationS * TARGET.scansPerSecond;

    // 3. the scanners, signed in (the first sign-in makes the actor, whom the owner then adds)
    browser = await launchBrowser();
    const pages: Page[] = [];
    for (let index = 0; index < settings.scanners; index += 1) {
      pages.push(await signedIn(browser, base));
      if (index === 0) {
        await callApi(base, 'POST', `/events/${seeded.eventId}/members`, seeded.ownerToken, {
          email: STAFF_EMAIL,
          role: 'staff',
        });
      }
    }
    for (const page of pages) {
      await page.goto(`${base}/console/editions/${seeded.editionId}/scan`);
      await page.locator('#scan-code').waitFor();
      await page.locator('#scan-counts').waitFor();
    }
    log(`${pages.length} scanners at the door`);

    // 4. the API alone
    logLoad('before the API scans');
    const api = await apiScans(
      base,
      seeded.editionId,
      seeded.staffToken,
      pages.map(() => take(perScanner)),
    );
    log(`API: ${api.timings.count} scans, ${[...api.results].map(([r, n]) => `${r} ${n}`).join(', ')}`);

    // 5. the door in the browsers
    logLoad('before the door');
    const door = await Promise.all(pages.map((page) => pageScans(page, take(perScanner))));
    const durations = door.flatMap((scanner) => scanner.durations);
    const doorTimings = timingsOf(durations);
    const answered = await callApi<{ edition: { checked_in: number } }>(
      base,
      'GET',
      `/editions/${seeded.editionId}/attendance`,
      seeded.ownerToken,
    );

    // 6. report
    const row = (label: string, m: Timings) => [
      label,
      String(m.count),
      m.p50.toFixed(0),
      m.p95.toFixed(0),
      m.max.toFixed(0),
    ];
    printTable(
      ['path', 'scans', 'p50 ms', 'p95 ms', 'max ms'],
      [
        row('POST /editions/{id}/check-ins, from Node (bare API)', api.timings),
        row('the door: code handed over → answer painted (Chromium)', doorTimings),
      ],
    );
    const expected = settings.scanners * perScanner;
    process.stdout.write(
      `\ntarget: p95 < ${TARGET.maxP95Ms} ms at ${TARGET.scanners} scanners × ${TARGET.scansPerSecond} scans/s\n` +
        `door p95 / API p95: ${(doorTimings.p95 / Math.max(1, api.timings.p95)).toFixed(1)}\n` +
        `checked in: ${answered.data.edition.checked_in} (API ${api.timings.count} + door ${expected} expected)\n`,
    );
    const failures: string[] = [];
    if (doorTimings.count !== expected)
      failures.push(`${doorTimings.count} door scans measured, ${expected} expected`);
    if (!(doorTimings.p95 < TARGET.maxP95Ms))
      failures.push(`door p95 ${doorTimings.p95.toFixed(0)} ms >= ${TARGET.maxP95Ms} ms`);
    if (door.some((scanner) => scanner.last !== 'ok')) failures.push('a scanner did not end on an ok answer');
    if (answered.data.edition.checked_in !== api.timings.count + expected)
      failures.push(
        `${answered.data.edition.checked_in} checked in, ${api.timings.count + expected} expected`,
      );
    if (settings.scanners < TARGET.scanners)
      failures.push(`${settings.scanners} scanners is below the target's ${TARGET.scanners}`);
    for (const failure of failures) process.stdout.write(`FAIL door: ${failure}\n`);
    log(`${failures.length === 0 ? 'PASS' : 'FAIL'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await idp.close();
    await cleanUp();
  }
}
