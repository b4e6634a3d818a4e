/**
 * The service as a process: start-up refusals name the variable, the development token CLI and
 * server agree on the key pair in DATA_DIR, and SIGTERM ends the process cleanly with exit 0.
 * Processes come from test/processes.ts, which kills them (and their process groups) whatever
 * happens to the test.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Child, killAllChildren, runScript, startService } from '../test/processes.ts';

function baseEnv(extra: Record<string, string>): Record<string, string> {
  // A clean environment: only what node needs plus the service variables of the test.
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...extra };
}

/** The service with this environment on a port of its choosing, once it answers. */
const startWith = (env: Record<string, string>) =>
  startService(baseEnv({ PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', ...env }));

/** Resolves once `text` appears in the child's output (the banner follows the JSON ready line). */
async function said(child: Child, text: string): Promise<void> {
  while (!child.output().includes(text)) {
    if (child.process.exitCode !== null) throw new Error(`exited before saying ${text}: ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A development token signed with the key pair in `dataDir` (`npm run token`). */
async function devToken(dataDir: string, email: string): Promise<string> {
  const { code, stdout, stderr } = await runScript(
    'src/kernel/auth/token-cli.ts',
    ['--email', email],
    baseEnv({ DATA_DIR: dataDir }),
  );
  assert.equal(code, 0, stderr);
  return stdout.trim();
}

describe('the service process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'convene-main-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    await killAllChildren();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the service with this environment and resolves with its exit code and stderr. */
  const failedStart = (env: Record<string, string>) => runScript('src/main.ts', [], baseEnv(env));

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

  it('refuses a busy port in one line, exit 1, before opening the database or starting anything', async () => {
    const dataDir = tempDir();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await failedStart({
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      });
      assert.equal(code, 1);
      assert.equal(stderr, `convene: port ${port} is in use: set PORT or stop the other process\n`);
      // Nothing logged: no worker, no jobs, no server started and stopped.
      assert.equal(stdout, '');
      // Nothing written either: the reservation comes before the development files and the database.
      assert.deepEqual(readdirSync(dataDir), []);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  // One service life, three promises: a start that says what it does and where it listens, the
  // development tokens it trusts (and the stale ones it explains), and an embedded database that
  // outlives a restart. One fresh database and two starts, not three databases and four starts:
  // creating an embedded database is most of a start's cost.
  it('says what it does while it starts, trusts `npm run token`, exits 0 on SIGTERM and keeps DATA_DIR across restarts', async () => {
    const dataDir = tempDir();
    const token = await devToken(dataDir, 'dev@example.com');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let service = await startWith({ DATA_DIR: dataDir });
    try {
      // 1. The phases of the start, then where it listens, its docs and how to get a token.
      await said(service, 'convene is ready');
      const phases = service
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('convene: '));
      assert.deepEqual(
        phases.map((line) => line.replace(/ \(.*$/, '').replace(/ on .*$/, '')),
        [
          'convene: opening the database',
          'convene: applying pending migrations',
          'convene: loading the application',
          'convene: listening',
        ],
      );
      assert.match(phases[0]!, /embedded, in .*pglite; created on this first start/);
      const banner = service.stderr().slice(service.stderr().indexOf('convene is ready'));
      assert.match(banner, new RegExp(`API +${service.url}\n`));
      assert.match(banner, new RegExp(`reference +${service.url}/docs\n`));
      assert.match(banner, /npm run token -- --email you@example\.com/);

      // 2. The development token of this DATA_DIR is trusted; a forged one is not.
      const health = await fetch(`${service.url}/health`);
      assert.equal(health.status, 200);
      const mine = await fetch(`${service.url}/events/mine`, { headers });
      assert.equal(mine.status, 200, await mine.clone().text());
      const forged = await fetch(`${service.url}/events/mine`, {
        headers: { authorization: `Bearer ${token}x` },
      });
      assert.equal(forged.status, 401);
      // A token minted with another DATA_DIR's key pair (as before ./data was reset): the refusal
      // keeps its code and says how to get a token this service trusts.
      const stale = await fetch(`${service.url}/events/mine`, {
        headers: { authorization: `Bearer ${await devToken(tempDir(), 'dev@example.com')}` },
      });
      assert.equal(stale.status, 401);
      const refusal = (await stale.json()) as { error: { code: string }; message: string };
      assert.equal(refusal.error.code, 'UNAUTHORIZED');
      assert.match(refusal.message, /signed by a key this service does not know/);
      assert.match(refusal.message, /npm run token -- --email/);

      // 3. Something to keep.
      const created = await fetch(`${service.url}/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Kept event', slug: 'kept-event' }),
      });
      assert.equal(created.status, 201);
    } finally {
      await service.kill('SIGTERM');
    }
    assert.equal(await service.exited, 0);
    assert.match(service.output(), /shutting down/);

    // 4. Started again on the same DATA_DIR: the event is there.
    service = await startWith({ DATA_DIR: dataDir });
    try {
      const kept = (await (await fetch(`${service.url}/events/mine`, { headers })).json()) as {
        data: Array<{ slug: string }>;
      };
      assert.deepEqual(
        kept.data.map((event) => event.slug),
        ['kept-event'],
      );
    } finally {
      await service.kill('SIGTERM');
    }
    assert.equal(await service.exited, 0);
  });
});
