/**
 * What the benchmark suites share (bench/reads.ts, bench/webhooks.ts): settings parsing, a fresh
 * database per suite, the key pair and token, free ports, the service and other children as
 * processes with relayed output, CPU figures from /proc, the load-average line, the table
 * printer, and the clean-up that runs at the end of a suite and on Ctrl-C.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import pg from 'pg';
import { signalGroup, spawnInGroup } from '../test/processes.ts';

// ---------- settings ----------

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function positiveInteger(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
}

export function nonNegativeInteger(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
}

/** What every suite reads: the PostgreSQL server, the base database name and the first port. */
export const common = {
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  databaseName: process.env.BENCH_DATABASE_NAME ?? 'convene_bench',
  firstPort: positiveInteger('BENCH_PORT', 18470),
};

export const log = (line: string) => process.stdout.write(`bench: ${line}\n`);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------- databases ----------

/** Databases created and not dropped yet: dropped by `cleanUp` (end of a suite, Ctrl-C). */
const databases = new Set<string>();

async function adminQuery<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: common.adminUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Drops `name` if it exists, creates it afresh and returns its URL (the admin URL, renamed). */
export async function createDatabase(name: string): Promise<string> {
  await adminQuery(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
  databases.add(name);
  await adminQuery(`CREATE DATABASE ${quoted(name)}`);
  const url = new URL(common.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
  databases.delete(name);
}

export async function serverSetting(name: 'server_version' | 'synchronous_commit'): Promise<string> {
  const [row] = await adminQuery<Record<string, string>>(`SHOW ${name}`);
  return row?.[name] ?? '?';
}

// ---------- seeding through the API ----------

/** One API call of a seed step, as an integrator makes it; anything but 2xx stops the suite. */
export async function callApi<T = Record<string, string>>(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ data: T }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as { data: T };
}

// ---------- keys ----------

export interface Signer {
  /** The JWKS the service trusts (`AUTH_PUBLIC_KEYS`). */
  publicJwks: string;
  /** A token for a fresh user (random `sub`), valid two hours. */
  token(email: string): Promise<string>;
}

/** A fresh Ed25519 key pair: the service trusts its public half, the run signs with the other. */
export async function makeSigner(): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = `bench-${randomBytes(4).toString('hex')}`;
  return {
    publicJwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' }] }),
    token: (email) =>
      new SignJWT({ email })
        .setProtectedHeader({ alg: 'EdDSA', kid })
        .setSubject(randomUUID())
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
  };
}

// ---------- ports ----------

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    // 8080 is the service's default and may be a developer's running instance.
    if (port !== 8080 && (await isPortFree(port))) return port;
  }
  throw new Error(`no free port in ${from}..${from + 99}`);
}

// ---------- child processes ----------

const children: ChildProcess[] = [];

/** The environment every child starts from: nothing of the caller's but PATH and HOME. */
export function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
}

let built = false;

/**
 * `dist/<entry>.js`, built first if src/ changed since the last build (`scripts/build.mjs
 * --if-stale`, what `npm start`'s prestart runs): the service and the worker are measured as
 * production runs them, plain JavaScript. Run through tsx instead, each process pays for the
 * loader: every module, and each mail thread's, compiled on start (the first seconds of a round
 * then measure compilation), and more CPU per request after (the minimal webhook pipeline's api:
 * 0.22–0.32 ms per delivery through tsx, 0.15–0.18 ms built; bench/README.md).
 */
export function builtEntry(entry: 'main' | 'worker'): string {
  if (process.env.BENCH_TSX === '1') return `src/${entry}.ts`;
  if (!built) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  return `dist/${entry}.js`;
}

/**
 * A script of bench/ (`bench/x.ts`) compiled into one JavaScript file with what it imports from
 * this repository (packages stay imports), for a child that a suite compares with the built
 * service (`builtEntry`): both sides then run plain JavaScript, and neither pays for tsx. Written
 * under node_modules/.cache, from where the packages resolve as from bench/. BENCH_TSX=1: the
 * script itself, run through tsx like the service.
 */
export async function builtBenchScript(source: string): Promise<string> {
  if (process.env.BENCH_TSX === '1') return source;
  // tsx's own esbuild, as scripts/build.mjs uses it.
  const require = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = require('esbuild') as typeof import('esbuild');
  const outfile = join(ROOT, 'node_modules/.cache/convene-bench', `${basename(source, '.ts')}.mjs`);
  await esbuild.build({
    entryPoints: [join(ROOT, source)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Starts `node <args>`, through tsx unless the script is built JavaScript (`builtEntry`); its
 * output is relayed line by line with a prefix. Spawned by test/processes.ts in a process group of
 * its own that is SIGKILLed when this process exits, so an interrupted or failed run leaves no
 * service behind.
 */
export function startChild(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const script = args.find((arg) => !arg.startsWith('-')) ?? '';
  const loader = /\.m?js$/.test(script) ? [] : ['--import', 'tsx'];
  const child = spawnInGroup(process.execPath, [...loader, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  children.push(child);
  return child;
}

/** Polls `url` until it answers `status` (default: any 2xx); fails if the child exits or after 60 s. */
export async function waitUntilAnswers(
  child: ChildProcess,
  url: string,
  name: string,
  status?: number,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (status === undefined ? response.ok : response.status === status) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(
    `${name} did not answer ${url}${status === undefined ? '' : ` with ${status}`} within 60 s`,
  );
}

/** SIGTERM, then SIGKILL after 10 s, to the child's whole process group. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** BENCH_PROFILE=<dir>: node flags that write a V8 CPU profile there when the process exits. */
function profileArgs(): string[] {
  return process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
}

/**
 * The node flags of the service and worker processes: those `npm start` gives node (package.json;
 * the heap cap that keeps the flood suite's RSS in bounds, see docs/configuration.md, "Memory"), then
 * BENCH_PROFILE's.
 */
export function serviceArgs(): string[] {
  // The start script's node flags (`exec node --max-old-space-size=512 --max-semi-space-size=32
  // dist/main.js`); startChild runs the sources through tsx (the built dist/ is what `npm start` runs).
  const start = String(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).scripts.start).split(/\s+/);
  return [...start.filter((part) => part.startsWith('--')), ...profileArgs()];
}

/** A fresh Ed25519 private key (PKCS #8 PEM), as `openssl genpkey -algorithm ed25519` makes one. */
function credentialSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The environment of the service (and of `npm run worker`) as it runs in production, on
 * `databaseUrl` and `port`, trusting `publicJwks`; `env` adds or overrides variables. Built from
 * scratch, so a developer's own AUTH_* or DATABASE_URL cannot leak into the run.
 */
export function serviceEnv(
  databaseUrl: string,
  port: number,
  publicJwks: string,
  env: Record<string, string>,
): Record<string, string> {
  return {
    ...baseEnv(),
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    AUTH_PUBLIC_KEYS: publicJwks,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // Production refuses to start without the key that signs certificates' credentials (contract 9).
    CREDENTIAL_SIGNING_KEY: credentialSigningKey(),
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: join(tmpdir(), 'convene-bench-data'),
    ...env,
  };
}

/** Starts the service (`serviceEnv`); resolves once `GET /ready` answers 200. */
export async function startService(
  databaseUrl: string,
  port: number,
  publicJwks: string,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = startChild(
    'service',
    [...serviceArgs(), builtEntry('main')],
    serviceEnv(databaseUrl, port, publicJwks, env),
  );
  await waitUntilAnswers(child, `http://127.0.0.1:${port}/ready`, 'service');
  return child;
}

/** One route of the bare server (bench/bare-server.ts). */
export interface BareRoute {
  /** Default GET. A POST route parses the JSON body it is sent (and does nothing with it). */
  method?: 'GET' | 'POST';
  path: string;
  /** Default 200. */
  status?: number;
  /** The JSON text it answers, as is. */
  body: string;
}

/** Starts bench/bare-server.ts on `port` with `routes`; resolves once it answers. */
export async function startBareServer(routes: BareRoute[], port: number): Promise<ChildProcess> {
  const scratch = mkdtempSync(join(tmpdir(), 'convene-bench-'));
  const routesFile = join(scratch, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const bare = startChild('bare', ['bench/bare-server.ts', routesFile, String(port)], {
    ...baseEnv(),
    NODE_ENV: 'production',
  });
  bare.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  await waitUntilAnswers(bare, `http://127.0.0.1:${port}/__ready`, 'bare server');
  return bare;
}

/** Stops every child started so far (end of a suite, Ctrl-C) and drops every database created. */
export async function cleanUp(): Promise<void> {
  await Promise.all(children.splice(0).map(stopChild));
  for (const name of [...databases]) {
    await dropDatabase(name).catch((error: unknown) => log(`could not drop ${name}: ${error}`));
  }
}

/** Ctrl-C: stop the children and drop the databases before leaving; a second Ctrl-C leaves at once. */
export function cleanUpOnInterrupt(): void {
  let isInterrupted = false;
  process.on('SIGINT', () => {
    if (isInterrupted) process.exit(130);
    isInterrupted = true;
    log('interrupted; cleaning up');
    void cleanUp()
      .catch(() => {})
      .finally(() => process.exit(130));
  });
}

// ---------- CPU and load ----------

/** Fields after the command name of /proc/<pid>/stat (field 3 onwards), or undefined. */
function statFields(pid: number | string | undefined): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere.
 * Fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s on Linux.
 */
export function cpuSeconds(pid: number | undefined): number {
  const fields = statFields(pid);
  return fields === undefined ? Number.NaN : (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds used so far by each PostgreSQL process whose command line (`postgres: user db
 * client state`, `postgres: 15/main: walwriter`) passes `select`, by pid.
 */
export function postgresCpuSeconds(select: (cmdline: string) => boolean): Map<number, number> {
  const used = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return used;
  }
  for (const pid of pids) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.startsWith('postgres') || !select(cmdline)) continue;
    const fields = statFields(pid);
    if (fields !== undefined) used.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return used;
}

/** CPU seconds the machine as a whole spent busy (all cores, every process), from /proc/stat. */
export function machineBusySeconds(): number {
  try {
    const [line = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Everything running shares this machine's cores with what is measured, so say how busy it is:
 * anything else running lowers every figure (p99 most of all).
 */
export function logLoad(when: string): void {
  const [oneMinute = 0] = loadavg();
  const cores = cpus().length;
  const warning = oneMinute > cores * 0.5 ? ' (busy machine: figures will be low and noisy)' : '';
  log(`load average ${when}: ${oneMinute.toFixed(2)} on ${cores} CPU(s)${warning}`);
}

// ---------- the start of a suite ----------

/**
 * Steps 1 and 2 of every suite, up to starting the service: the header line (`details` after the
 * machine and the server) and the load average, a fresh `databaseName`, a key pair and a port.
 */
export async function beginSuite(databaseName: string, details: string) {
  log(
    `node ${process.version}, ${cpus().length} CPU(s), PostgreSQL ${await serverSetting('server_version')}, ` +
      details,
  );
  logLoad('before the run');
  const databaseUrl = await createDatabase(databaseName);
  log(`created database ${databaseName}`);
  const signer = await makeSigner();
  const servicePort = await freePort(common.firstPort);
  log(`starting the service on port ${servicePort} (migrations run at start-up)`);
  return { databaseUrl, signer, servicePort };
}

// ---------- report ----------

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const format = (line: string[]) =>
    line.map((cell, column) =>
      column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
    );
  process.stdout.write(`\n${format(header).join('  ')}\n`);
  process.stdout.write(`${widths.map((width) => '-'.repeat(width)).join('  ')}\n`);
  for (const line of rows) process.stdout.write(`${format(line).join('  ')}\n`);
}

export interface RateMeasurement {
  sent: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  cpuPercent: number;
}

/**
 * POSTs `body` to `url` at `rate` per second for `durationS` seconds (10 connections), each request
 * with the next of `tokens` when given; the latencies, and the CPU of `measured` over the run.
 */
export async function postAtRate(options: {
  url: string;
  body: string;
  rate: number;
  durationS: number;
  measured: ChildProcess;
  tokens?: string[];
}): Promise<RateMeasurement> {
  const { tokens } = options;
  let next = 0;
  const cpuBefore = cpuSeconds(options.measured.pid);
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: options.body,
    connections: 10,
    overallRate: options.rate,
    amount: options.rate * options.durationS,
    requests: [
      {
        setupRequest: (request) => {
          if (tokens === undefined) return request;
          const token = tokens[next++];
          return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
        },
      },
    ],
  });
  return {
    sent: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuPercent: ((cpuSeconds(options.measured.pid) - cpuBefore) / options.durationS) * 100,
  };
}

/**
 * A published event (`name`, `slug`) with a published edition 30 days ahead, lasting `days`:
 * what a suite registers people for. Answers both ids.
 */
export async function publishedEdition(
  base: string,
  token: string,
  name: string,
  slug: string,
  days = 2,
): Promise<{ eventId: string; editionId: string }> {
  const event = (await callApi(base, 'POST', '/events', token, { name, slug })).data;
  await callApi(base, 'POST', `/events/${event.id}/publish`, token);
  const day = 86_400_000;
  const edition = (
    await callApi(base, 'POST', `/events/${event.id}/editions`, token, {
      name: `${name} 2027`,
      slug: 'y2027',
      starts_at: new Date(Date.now() + 30 * day).toISOString(),
      ends_at: new Date(Date.now() + (30 + days) * day).toISOString(),
    })
  ).data;
  await callApi(base, 'POST', `/events/${event.id}/editions/${edition.id}/publish`, token);
  return { eventId: event.id!, editionId: edition.id! };
}
