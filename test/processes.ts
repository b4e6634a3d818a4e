/**
 * The service and the standalone worker as child processes, for tests and benchmarks that need
 * real processes (killed with SIGKILL, or several sharing one PostgreSQL database). Logs are JSON
 * lines on stdout, kept for inspection.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { testKeys } from './harness.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Child {
  process: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Environment every child gets: the harness's trusted key, a shared SECRETS_KEY, JSON logs. */
export async function childEnv(databaseUrl: string, extra: Record<string, string> = {}) {
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

function startChild(
  script: string,
  env: Record<string, string>,
  ready: (line: Record<string, unknown>) => boolean,
) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const started = new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          logs.push(parsed);
          if (ready(parsed)) resolve();
        } catch {
          // not a log line
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    void exited.then((code) =>
      reject(new Error(`${script} exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  const handle: Child = {
    process: child,
    logs,
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  return { handle, started };
}

const READY_TIMEOUT_MS = 30_000;

async function whenReady(started: Promise<void>, child: Child, what: string): Promise<Child> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      started,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} not ready in time`)), READY_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    await child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return child;
}

/**
 * `src/main.ts` on `env.PORT`, resolved once an API route answers (401 without a token), not merely
 * once it listens: routing, authentication and the database are up (`/health` shows only the first).
 */
export async function startService(env: Record<string, string>): Promise<Child & { url: string }> {
  const url = `http://127.0.0.1:${env.PORT}`;
  const { handle, started } = startChild('src/main.ts', env, () => false);
  const healthy = (async () => {
    while ((await fetch(`${url}/wallets`).catch(() => undefined))?.status !== 401) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await whenReady(Promise.race([started, healthy]), handle, 'service');
  return Object.assign(handle, { url });
}

/** `src/worker.ts`, resolved once its worker has started. */
export async function startWorker(env: Record<string, string>): Promise<Child> {
  const { handle, started } = startChild(
    'src/worker.ts',
    env,
    (line) => line.msg === 'webhook worker started',
  );
  return whenReady(started, handle, 'worker');
}
