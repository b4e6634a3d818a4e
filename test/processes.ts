/**
 * Child processes for tests and benchmarks: the service, the standalone worker and any other
 * script run as real processes (killed with SIGKILL, several sharing one PostgreSQL database,
 * start-up refusals). The one place that spawns them.
 *
 * No child may outlive its test, or a test run waits on it forever (a slow start once made
 * `npm test` hang for 20 minutes). So every child is spawned in a process group of its own
 * (`detached`), and the whole group is SIGKILLed:
 * - when its start fails or times out (`readyTimeoutMs`, 60 s by default: ample on a machine
 *   loaded by other work, and costless on an idle one, since a ready child ends the wait);
 * - when it exits, in case it left processes of its own behind;
 * - by `killAllChildren()`, which every test file that starts children calls in an `after` hook;
 * - when this process exits, or is ended by SIGINT, SIGTERM or SIGHUP (a detached group no longer
 *   gets the terminal's Ctrl-C, so it is relayed here as a SIGKILL).
 * Only a SIGKILL of this process itself can still leave children behind.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_READY_TIMEOUT_MS = 60_000;

// ---------- process groups ----------

/** Children whose group may still hold processes. */
const live = new Set<ChildProcess>();

/** Sends `signal` to the child's whole process group; a group already gone is not an error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the process group the detached child leads.
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function killLiveGroups(): void {
  for (const child of live) signalGroup(child, 'SIGKILL');
}

let isExitHooked = false;
function hookProcessExit(): void {
  if (isExitHooked) return;
  isExitHooked = true;
  // 'exit' handlers run synchronously, and process.kill is synchronous.
  process.once('exit', killLiveGroups);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // Another listener (node:test, a benchmark's clean-up) owns the shutdown and ends with
      // process.exit, which the 'exit' hook covers. Alone, listening would keep this process
      // alive, so kill the groups and re-raise the signal for its default action.
      if (process.listenerCount(signal) > 1) return;
      killLiveGroups();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * `spawn` in a process group of its own, tracked until it exits (then whatever it left in its group
 * is SIGKILLed too). The building block of everything below, and of bench/lib.ts.
 */
export function spawnInGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  hookProcessExit();
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once('exit', () => {
    signalGroup(child, 'SIGKILL');
    live.delete(child);
  });
  return child;
}

/** SIGKILLs every child's group still alive and waits for the children to exit. For `after` hooks. */
export async function killAllChildren(): Promise<void> {
  const children = [...live];
  const exits = children.map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      }),
  );
  for (const child of children) signalGroup(child, 'SIGKILL');
  await Promise.all(exits);
}

// ---------- scripts of this repository ----------

export interface Child {
  process: ChildProcess;
  /** Parsed JSON log lines of stdout so far. */
  logs: Array<Record<string, unknown>>;
  /** Everything written to stdout and stderr so far, as text, in arrival order. */
  output(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code, or the signal name when a signal ended it. */
  exited: Promise<number | string>;
  /** Sends `signal` (default SIGTERM) to the child's process group; resolves when the child exits. */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * `node --import tsx <script> …args` from the repository root with exactly `env` (nothing of this
 * process's environment is passed on unless it is in `env`).
 */
export function spawnScript(script: string, env: Record<string, string>, args: string[] = []): Child {
  const child = spawnInGroup(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let output = '';
  let stderr = '';
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    stderr += text;
  });
  const exited = new Promise<number | string>((resolve) => {
    // 'close', not 'exit': by then stdout and stderr have been read to the end.
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return {
    process: child,
    logs,
    output: () => output,
    stderr: () => stderr,
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) signalGroup(child, signal);
      return exited;
    },
  };
}

export interface ReadyOptions {
  /** How long the child has to become ready before its group is killed. Default 60 s. */
  readyTimeoutMs?: number;
}

/**
 * Resolves with what `ready` resolves to. If the child exits first, `ready` rejects, or
 * `readyTimeoutMs` passes, the child's group is SIGKILLed, its exit awaited, and this rejects with
 * the child's output.
 */
export async function whenReady<T>(
  child: Child,
  ready: Promise<T>,
  what: string,
  options: ReadyOptions = {},
): Promise<T> {
  const timeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const exitedFirst = child.exited.then((code) => {
    throw new Error(`${what} exited (${code}) before it was ready`);
  });
  // Once the child is ready this rejects when it ends, which nobody awaits any more.
  exitedFirst.catch(() => {});
  try {
    return await Promise.race([
      ready,
      exitedFirst,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} not ready within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    await child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}; its output:\n${child.output()}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves with the first stdout log line that passes `test` (also one already received). */
function logLine(child: Child, test: (line: Record<string, unknown>) => boolean) {
  return new Promise<Record<string, unknown>>((resolve) => {
    const found = child.logs.find(test);
    if (found !== undefined) return resolve(found);
    const onData = () => {
      const line = child.logs.find(test);
      if (line === undefined) return;
      child.process.stdout!.off('data', onData);
      resolve(line);
    };
    // Registered after spawnScript's own listener, so `logs` already holds the chunk's lines.
    child.process.stdout!.on('data', onData);
  });
}

const LISTENING = /^Server listening at (http:\/\/\S+)$/;

/**
 * `src/main.ts` with exactly `env` (see childEnv for the usual one; LOG_LEVEL must be info or
 * lower). Resolved once the service has logged `Server listening at <url>` and an API route
 * answers at that URL (401 without a token): routing, authentication and the database are up.
 * `env.PORT` may be `0`: the URL comes from the log line.
 */
export async function startService(
  env: Record<string, string>,
  options: ReadyOptions = {},
): Promise<Child & { url: string }> {
  const child = spawnScript('src/main.ts', env);
  const ready = (async () => {
    const line = await logLine(child, (entry) => LISTENING.test(String(entry.msg)));
    const url = LISTENING.exec(String(line.msg))![1]!;
    while ((await fetch(`${url}/wallets`).catch(() => undefined))?.status !== 401) {
      if (child.process.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return url;
  })();
  const url = await whenReady(child, ready, 'service', options);
  return Object.assign(child, { url });
}

/** `src/worker.ts` with exactly `env`, resolved once its worker has started. */
export async function startWorker(env: Record<string, string>, options: ReadyOptions = {}): Promise<Child> {
  const child = spawnScript('src/worker.ts', env);
  await whenReady(
    child,
    logLine(child, (line) => line.msg === 'webhook worker started'),
    'worker',
    options,
  );
  return child;
}

/**
 * Runs `script` to its end and resolves with its exit code (or signal) and output. Past
 * `timeoutMs` (default 60 s) its group is SIGKILLed and this rejects.
 */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = spawnScript(script, env, args);
  let stdout = '';
  child.process.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${script} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const code = await Promise.race([child.exited, timedOut]);
    return { code, stdout, stderr: child.stderr() };
  } catch (error) {
    await child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// ---------- what the tests give their children ----------

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Environment every child gets: the harness's trusted key, a shared SECRETS_KEY, JSON logs. */
export async function childEnv(databaseUrl: string, extra: Record<string, string> = {}) {
  // Imported here, not at the top: the harness loads the whole app, which bench/lib.ts (a user of
  // the process-group functions above) does not need.
  const { testKeys } = await import('./harness.ts');
  const keys = await testKeys();
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    AUTH_PUBLIC_KEYS: JSON.stringify({ keys: [keys.publicJwk] }),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** Runs `task(i)` for i in [0, count) with `width` at a time (clients of a child service). */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
