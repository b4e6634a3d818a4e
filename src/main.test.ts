/**
 * The service as a process: start-up refusals name the variable, the development token CLI and
 * server agree on the key pair in DATA_DIR, and SIGTERM ends the process cleanly with exit 0.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const TSX = ['--import', 'tsx'];

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // A clean environment: only what node needs plus the service variables of the test.
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts the service and resolves with its base URL once it listens. */
function startService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [...TSX, 'src/main.ts'], {
    cwd: ROOT,
    env: baseEnv({ PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', ...env }),
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${output}`));
    });
  });
}

describe('the service process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'convene-main-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the service with this environment and resolves with its exit code and stderr. */
  async function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [...TSX, 'src/main.ts'], { cwd: ROOT, env: baseEnv(env) });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return { code: await exitOf(child), stderr };
  }

  it('refuses to start in production without SECRETS_KEY, naming it', async () => {
    const { code, stderr } = await failedStart({
      NODE_ENV: 'production',
      AUTH_PUBLIC_KEYS: '{"keys":[]}',
      DATABASE_URL: 'memory://',
    });
    assert.equal(code, 1);
    assert.match(stderr, /SECRETS_KEY/);
  });

  it('refuses to start in production without a key source, naming it', async () => {
    const { code, stderr } = await failedStart({
      NODE_ENV: 'production',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    assert.equal(code, 1);
    assert.match(stderr, /AUTH_JWKS_URL/);
  });

  it('trusts tokens from `npm run token` in development and exits 0 on SIGTERM', async () => {
    const dataDir = tempDir();
    const { stdout: token } = await run(
      process.execPath,
      [...TSX, 'src/kernel/auth/token-cli.ts', '--email', 'dev@example.com'],
      { cwd: ROOT, env: baseEnv({ DATA_DIR: dataDir }) },
    );
    const service = await startService({ DATA_DIR: dataDir, DATABASE_URL: 'memory://' });
    try {
      const health = await fetch(`${service.url}/health`);
      assert.equal(health.status, 200);
      const mine = await fetch(`${service.url}/events/mine`, {
        headers: { authorization: `Bearer ${token.trim()}` },
      });
      assert.equal(mine.status, 200, await mine.clone().text());
      const forged = await fetch(`${service.url}/events/mine`, {
        headers: { authorization: `Bearer ${token.trim()}x` },
      });
      assert.equal(forged.status, 401);
    } finally {
      service.child.kill('SIGTERM');
    }
    assert.equal(await exitOf(service.child), 0);
    assert.match(service.output(), /shutting down/);
  });

  it('keeps its embedded database in DATA_DIR across restarts', async () => {
    const dataDir = tempDir();
    const { stdout: token } = await run(
      process.execPath,
      [...TSX, 'src/kernel/auth/token-cli.ts', '--email', 'keep@example.com'],
      { cwd: ROOT, env: baseEnv({ DATA_DIR: dataDir }) },
    );
    const headers = { authorization: `Bearer ${token.trim()}`, 'content-type': 'application/json' };
    let service = await startService({ DATA_DIR: dataDir });
    const created = await fetch(`${service.url}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Kept event', slug: 'kept-event' }),
    });
    assert.equal(created.status, 201);
    service.child.kill('SIGTERM');
    assert.equal(await exitOf(service.child), 0);

    service = await startService({ DATA_DIR: dataDir });
    try {
      const mine = (await (await fetch(`${service.url}/events/mine`, { headers })).json()) as {
        data: Array<{ slug: string }>;
      };
      assert.deepEqual(
        mine.data.map((event) => event.slug),
        ['kept-event'],
      );
    } finally {
      service.child.kill('SIGTERM');
    }
    assert.equal(await exitOf(service.child), 0);
  });
});
