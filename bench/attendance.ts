/**
 * The attendance suite of `npm run bench` (`BENCH_SUITES=attendance`): the door and the
 * certificates of contract 9, on one edition with 10,000 participant badges.
 *
 * 1. Check-in latency. A staff member's scanner sends `POST /editions/{id}/check-ins` at a fixed
 *    200 scans/s, every scan a different badge's URL (first scans: `ok`, a row inserted), for
 *    30 s after a 3 s warm-up; then a second pass over badges already in (`already_checked_in`).
 *    A bare Fastify POST route answering the same body is measured at the same rate first.
 *    Target: p99 < 30 ms, only 2xx.
 * 2. Issuance. 5,000 people checked in and one `edition_attendance` template; the owner posts
 *    `certificates/issue` and the run polls `GET /jobs/{id}` every 250 ms, printing progress.
 *    Target: 5,000 certificates in < 60 s from the POST to `completed`, a poll seeing the job
 *    part-way (`done` advancing), and exactly 5,000 certificates in the database, one per person.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_attendance`), the service on it;
 *   2. seed through the API: owner, event and edition (published), a free ticket type, a staff
 *      member; 10,000 people, each registering with a token of their own (one confirmed
 *      registration and one participant badge each); the codes from `GET …/badges/print`;
 *   3. the bare route, then the service: warm-up, first scans, re-scans (bench/paced.ts), each
 *      window with the CPU every part used (bench/webhooks-observe.ts);
 *   4. the checked-in set brought to exactly 5,000 people, a template, the issuance, polled; the
 *      SQL checks;
 *   5. the tables and the verdict (bench/attendance-report.ts); stop the service, drop the database.
 *
 * Environment (all optional): BENCH_ATTENDANCE_PEOPLE (badges, 10000), BENCH_ATTENDANCE_RATE
 * (scans/s, 200), BENCH_ATTENDANCE_DURATION (s, 30), BENCH_ATTENDANCE_WARMUP (s, 3),
 * BENCH_ATTENDANCE_RESCAN (s of re-scans, 10; 0 skips them), BENCH_ATTENDANCE_CERTIFIED (people
 * checked in when issuing, 5000), and BENCH_DATABASE_URL, BENCH_DATABASE_NAME, BENCH_PORT,
 * BENCH_PROFILE as for the other suites.
 */
import type { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import pg from 'pg';
import {
  type Issuance,
  judgeIssuance,
  judgeScans,
  type Measurement,
  report,
  TARGET,
} from './attendance-report.ts';
import {
  beginSuite,
  callApi,
  cleanUp,
  common,
  freePort,
  log,
  logLoad,
  nonNegativeInteger,
  positiveInteger,
  type Signer,
  sleep,
  startBareServer,
  startService,
} from './lib.ts';
import { runPaced } from './paced.ts';
import { cpuSnapshot, cpuUsed } from './webhooks-observe.ts';

const settings = {
  people: positiveInteger('BENCH_ATTENDANCE_PEOPLE', 10_000),
  rate: positiveInteger('BENCH_ATTENDANCE_RATE', TARGET.rate),
  durationS: positiveInteger('BENCH_ATTENDANCE_DURATION', 30),
  warmupS: positiveInteger('BENCH_ATTENDANCE_WARMUP', 3),
  rescanS: nonNegativeInteger('BENCH_ATTENDANCE_RESCAN', 10),
  certified: positiveInteger('BENCH_ATTENDANCE_CERTIFIED', TARGET.certificates),
  databaseName: `${common.databaseName}_attendance`,
};

/** Registrations in flight at once while seeding: enough to keep both cores busy. */
const SEED_CONCURRENCY = 8;
const POLL_MS = 250;
const MAX_ISSUE_WAIT_MS = 5 * 60_000;

// ---------- 2. seed ----------

export interface Seed {
  eventId: string;
  editionId: string;
  ownerToken: string;
  staffToken: string;
  /** Each participant badge's QR content (`PUBLIC_BASE_URL/b/<code>`), in emission order. */
  badgeUrls: string[];
}

/** Runs `task(0…count-1)` with `concurrency` at a time; logs progress every 2,000. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await task(index);
      if ((index + 1) % 2_000 === 0) log(`  ${index + 1} / ${count}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The edition under way, its staff member and `people` participant badges (the door suite's too). */
export async function seedAttendance(base: string, signer: Signer, people: number): Promise<Seed> {
  const ownerToken = await signer.token('owner@attendance.example');
  const staffToken = await signer.token('door@attendance.example');
  const event = (
    await callApi(base, 'POST', '/events', ownerToken, { name: 'Attendance Conf', slug: 'attendance-conf' })
  ).data;
  await callApi(base, 'POST', `/events/${event.id}/publish`, ownerToken);
  // Under way: the doors are open today, and registration is open until it ends.
  const now = Date.now();
  const edition = (
    await callApi(base, 'POST', `/events/${event.id}/editions`, ownerToken, {
      name: 'Attendance Conf 2026',
      slug: 'y2026',
      starts_at: new Date(now - 3_600_000).toISOString(),
      ends_at: new Date(now + 2 * 86_400_000).toISOString(),
    })
  ).data;
  await callApi(base, 'POST', `/events/${event.id}/editions/${edition.id}/publish`, ownerToken);
  const ticket = (
    await callApi(base, 'POST', `/editions/${edition.id}/ticket-types`, ownerToken, {
      name: 'Conference pass',
      price_cents: 0,
      access_level: 1,
    })
  ).data;
  // The door staff: an actor once they have called the API, then a member of the event.
  await callApi(base, 'GET', '/users/me/certificates', staffToken);
  await callApi(base, 'POST', `/events/${event.id}/members`, ownerToken, {
    email: 'door@attendance.example',
    role: 'staff',
  });

  log(`registering ${people} people through the API (${SEED_CONCURRENCY} at a time)`);
  const started = performance.now();
  const body = { ticket_type_id: ticket.id };
  await inParallel(people, SEED_CONCURRENCY, async (index) => {
    const token = await signer.token(`person${index}@attendance.example`);
    await callApi(base, 'POST', `/editions/${edition.id}/registrations`, token, body);
  });
  const seconds = (performance.now() - started) / 1000;
  log(`registered in ${seconds.toFixed(1)} s (${(people / seconds).toFixed(0)}/s)`);

  const printStarted = performance.now();
  const items = (
    await callApi<Array<{ origin: string; variables: { action_url: string } }>>(
      base,
      'GET',
      `/editions/${edition.id}/badges/print`,
      ownerToken,
    )
  ).data;
  const badgeUrls = items.filter((item) => item.origin === 'participant').map((i) => i.variables.action_url);
  log(
    `print data: ${items.length} badges (${badgeUrls.length} participant) in ` +
      `${((performance.now() - printStarted) / 1000).toFixed(1)} s`,
  );
  if (badgeUrls.length !== people) {
    throw new Error(`expected ${people} participant badges, the print data has ${badgeUrls.length}`);
  }
  return { eventId: event.id!, editionId: edition.id!, ownerToken, staffToken, badgeUrls };
}

// ---------- 3. check-in latency ----------

/** A check-in answer's `result`: `data.result` (200) or `error.meta.result` (409). */
function resultOf(status: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as { data?: { result?: string }; error?: { meta?: { result?: string } } };
    return parsed.data?.result ?? parsed.error?.meta?.result ?? `HTTP ${status}`;
  } catch {
    return `HTTP ${status}`;
  }
}

/** One window: a scan of each of `urls` at the rate, with the CPU every part used meanwhile. */
async function measure(
  label: string,
  server: ChildProcess,
  url: URL,
  token: string | undefined,
  urls: string[],
  expected?: string,
): Promise<Measurement> {
  const before = cpuSnapshot(server, [], settings.databaseName);
  const result = await runPaced({
    origin: url.origin,
    path: url.pathname,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    bodies: urls.map((code) => JSON.stringify({ code })),
    rate: settings.rate,
    classify: resultOf,
  });
  return { ...result, label, expected, cpu: cpuUsed(before, cpuSnapshot(server, [], settings.databaseName)) };
}

// ---------- 4. issuance ----------

interface Job {
  status: string;
  total: number;
  done: number;
  issued: number;
  errors: number;
  started_at: string | null;
  finished_at: string | null;
}

/**
 * Brings the people checked in at the edition to exactly `settings.certified`: the first scans of
 * step 3 are more (6,601 with the defaults), so the latest are deleted, by SQL (what is left is
 * what 5,000 scans through the API leave); fewer (short windows), and the missing ones are
 * scanned through the API.
 */
async function checkInExactly(client: pg.Client, base: string, seeded: Seed, scanned: number): Promise<void> {
  if (scanned < settings.certified) {
    const missing = seeded.badgeUrls.slice(scanned, settings.certified);
    await inParallel(missing.length, SEED_CONCURRENCY, async (index) => {
      await callApi(base, 'POST', `/editions/${seeded.editionId}/check-ins`, seeded.staffToken, {
        code: missing[index],
      });
    });
  }
  await client.query(
    `delete from check_ins where id in (
       select id from check_ins where edition_id = $1 order by checked_in_at, id offset $2)`,
    [seeded.editionId, settings.certified],
  );
  const { rows } = await client.query<{ people: number }>(
    'select count(distinct user_id)::int as people from check_ins where edition_id = $1',
    [seeded.editionId],
  );
  if (rows[0]?.people !== settings.certified) {
    throw new Error(`${rows[0]?.people} people checked in, expected ${settings.certified}`);
  }
}

/** Certificates of the edition: rows, distinct people and pairs, and rows of people checked in. */
async function countCertificates(client: pg.Client, editionId: string): Promise<Issuance['counted']> {
  const { rows } = await client.query<Issuance['counted']>(
    `select count(*)::int as rows, count(distinct user_id)::int as people,
            count(distinct (template_id, user_id))::int as pairs,
            count(*) filter (where exists (
              select 1 from check_ins c where c.edition_id = x.edition_id and c.user_id = x.user_id
            ))::int as attended
       from certificates x where edition_id = $1`,
    [editionId],
  );
  return rows[0]!;
}

/** A template, the POST, then `GET /jobs/{id}` every POLL_MS with a progress line, until it ends. */
async function issue(
  base: string,
  service: ChildProcess,
  seeded: Seed,
  client: pg.Client,
): Promise<Issuance> {
  await callApi(base, 'POST', `/editions/${seeded.editionId}/certifications/templates`, seeded.ownerToken, {
    kind: 'edition_attendance',
    name: 'Certificate of attendance',
  });
  const before = cpuSnapshot(service, [], settings.databaseName);
  const posted = performance.now();
  const path = `/editions/${seeded.editionId}/certificates/issue`;
  const jobId = (await callApi<{ job_id: string }>(base, 'POST', path, seeded.ownerToken, {})).data.job_id;
  const steps = new Set<number>();
  let polls = 0;
  for (;;) {
    await sleep(POLL_MS);
    const job = (await callApi<Job>(base, 'GET', `/jobs/${jobId}`, seeded.ownerToken)).data;
    polls += 1;
    const elapsedS = (performance.now() - posted) / 1000;
    if (job.done > 0 && job.done < job.total) steps.add(job.done);
    log(
      `  ${elapsedS.toFixed(2).padStart(6)} s  ${job.status.padEnd(9)} done ${job.done}/${job.total}  ` +
        `issued ${job.issued}  ${(job.issued / elapsedS).toFixed(0)}/s`,
    );
    if (job.status === 'completed' || job.status === 'failed' || elapsedS * 1000 > MAX_ISSUE_WAIT_MS) {
      const cpu = cpuUsed(before, cpuSnapshot(service, [], settings.databaseName));
      const jobMs =
        job.started_at === null || job.finished_at === null
          ? Number.NaN
          : Date.parse(job.finished_at) - Date.parse(job.started_at);
      return {
        people: settings.certified,
        wallS: elapsedS,
        jobS: jobMs / 1000,
        status: job.status,
        issued: job.issued,
        errors: job.errors,
        progressSteps: steps.size,
        polls,
        cpu,
        counted: await countCertificates(client, seeded.editionId),
      };
    }
  }
}

// ---------- the run ----------

export async function runAttendance(): Promise<number> {
  const started = Date.now();
  const scans = settings.rate * (settings.warmupS + settings.durationS);
  const rescans = Math.min(settings.rate * settings.rescanS, settings.rate * settings.durationS);
  // The last badge is kept for the sample scan whose answer the bare route serves.
  if (scans + 1 > settings.people || settings.certified > settings.people) {
    throw new Error(
      `BENCH_ATTENDANCE_PEOPLE (${settings.people}) must exceed the scans (${scans}) and ` +
        `BENCH_ATTENDANCE_CERTIFIED (${settings.certified})`,
    );
  }
  let client: pg.Client | undefined;
  try {
    // 1. database and service
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `attendance: ${settings.people} badges, ${settings.rate} scans/s for ${settings.warmupS} s warm-up + ` +
        `${settings.durationS} s (re-scans ${settings.rescanS} s), then ${settings.certified} certificates`,
    );
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, {});
    const base = `http://127.0.0.1:${servicePort}`;
    log('service ready');

    // 2. seed, and the answer of one scan (the last badge, scanned in no window) for the bare route
    const seeded = await seedAttendance(base, signer, settings.people);
    const checkInUrl = new URL(`${base}/editions/${seeded.editionId}/check-ins`);
    const sample = await fetch(checkInUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.staffToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: seeded.badgeUrls.at(-1) }),
    });
    const sampleText = await sample.text();
    if (sample.status !== 200) throw new Error(`a check-in answered ${sample.status}: ${sampleText}`);

    // 3. the bare route, then the service: warm-up, first scans, re-scans
    const barePort = await freePort(servicePort + 1);
    const bare = await startBareServer(
      [{ method: 'POST', path: '/bare/check-in', body: sampleText }],
      barePort,
    );
    const bareUrl = new URL(`http://127.0.0.1:${barePort}/bare/check-in`);
    const warmUrls = seeded.badgeUrls.slice(0, settings.rate * settings.warmupS);
    const firstUrls = seeded.badgeUrls.slice(warmUrls.length, scans);
    log(`bare POST: ${settings.warmupS} s warm-up + ${settings.durationS} s at ${settings.rate}/s`);
    await measure('bare POST (same answer)', bare, bareUrl, undefined, warmUrls);
    const bareResult = await measure('bare POST (same answer)', bare, bareUrl, undefined, firstUrls);
    logLoad('before the service run');
    log(`check-ins: ${settings.warmupS} s warm-up + ${settings.durationS} s of first scans`);
    const token = seeded.staffToken;
    await measure('warm-up', service, checkInUrl, token, warmUrls, 'ok');
    const windows = [await measure('check-in, first scans', service, checkInUrl, token, firstUrls, 'ok')];
    if (rescans > 0) {
      log(`check-ins: ${settings.rescanS} s of re-scans of badges already in`);
      const again = firstUrls.slice(0, rescans);
      windows.push(
        await measure('check-in, re-scans', service, checkInUrl, token, again, 'already_checked_in'),
      );
    }

    // 4. exactly `certified` people in, a template, the issuance
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await checkInExactly(client, base, seeded, scans + 1);
    log(`${settings.certified} people checked in; issuing (polling every ${POLL_MS} ms)`);
    const issuance = await issue(base, service, seeded, client);

    // 5. report
    logLoad('after the run');
    const hasFailed = report(
      bareResult,
      windows.map((m) => ({ m, failures: judgeScans(m, settings.rate) })),
      issuance,
      judgeIssuance(issuance),
      cpus().length,
    );
    log(`${hasFailed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return hasFailed ? 1 : 0;
  } finally {
    await client?.end().catch(() => {});
    await cleanUp();
  }
}
