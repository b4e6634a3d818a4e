/**
 * The README's path ("Your first hour"), walked verbatim: every `sh` block, in order, in one bash
 * session in the repository's root, on a fresh data directory, as a newcomer pastes them. Each
 * block's output must be the output block that follows it in the README (`…` stands for any
 * text). Between the blocks a browser opens the pages the README tells the reader to open: the
 * badge page after the scan, the verification page after the certificate.
 *
 * Only the ports differ from a newcomer's run (the README reads them from PORT, SIMULATOR_PORT and
 * RECEIVER_PORT, here free ones), and the logs go to a scratch TMPDIR. What the blocks start in
 * the background (the service, the simulator, the receiver) lives in the session's process group,
 * killed at the end whatever happened.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sharedBrowser } from './browser.ts';
import { freePort, killAllChildren, spawnInGroup } from './processes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A block may start the service (first start compiles, migrates and creates the keys). */
const BLOCK_TIMEOUT_MS = 180_000;

export interface PathBlock {
  script: string;
  /** The output block that follows it, if any. */
  expected: string | undefined;
}

/** The README's `sh` blocks, each with the plain output block right after it. */
export function pathBlocks(readme: string): PathBlock[] {
  const fences = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1]!,
    body: match[2]!,
    start: match.index!,
    end: match.index! + match[0].length,
  }));
  const blocks: PathBlock[] = [];
  fences.forEach((fence, index) => {
    if (fence.lang !== 'sh') return;
    const next = fences[index + 1];
    const adjacent =
      next !== undefined && next.lang === '' && readme.slice(fence.end, next.start).trim() === '';
    blocks.push({ script: fence.body, expected: adjacent ? next.body : undefined });
  });
  return blocks;
}

/** Whether `actual` is the README's `expected` output, `…` matching any text within a line. */
export function matchesOutput(actual: string, expected: string): boolean {
  const lines = (text: string) => text.replace(/\n+$/, '').split('\n');
  const want = lines(expected);
  const got = lines(actual);
  if (want.length !== got.length) return false;
  return want.every((line, i) => {
    const pattern = line
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${pattern}$`).test(got[i]!);
  });
}

/** One bash session fed a block at a time; each block's stdout is read up to a marker. */
function bashSession(env: NodeJS.ProcessEnv) {
  const child = spawnInGroup('bash', [], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let count = 0;
  return {
    /** Runs `script`; its stdout, and the status of its last command. */
    async run(script: string): Promise<{ output: string; status: number; stderr: string }> {
      count += 1;
      const marker = `@@end-of-block ${count}`;
      const from = stdout.length;
      const errFrom = stderr.length;
      child.stdin!.write(`${script}\necho "${marker} $?"\n`);
      const deadline = Date.now() + BLOCK_TIMEOUT_MS;
      for (;;) {
        const at = stdout.indexOf(marker, from);
        if (at >= 0) {
          const status = Number(
            stdout
              .slice(at + marker.length)
              .trim()
              .split('\n')[0],
          );
          return { output: stdout.slice(from, at), status, stderr: stderr.slice(errFrom) };
        }
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(
            `the block did not finish:\n${script}\nstdout: ${stdout.slice(from)}\nstderr: ${stderr}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    /** The value of a shell variable of the session. */
    async variable(name: string): Promise<string> {
      return (await this.run(`printf '%s\\n' "$${name}"`)).output.trim();
    },
  };
}

describe("the README's path, walked verbatim", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'convene-readme-'));
  const browser = sharedBrowser();
  after(async () => {
    await browser.close();
    await killAllChildren();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('parses output blocks and matches them with … as any text', () => {
    const blocks = pathBlocks(
      'x\n\n```sh\necho a\n```\n\n```\na…\n```\n\n```sh\ntrue\n```\n\nprose\n\n```\nnot output\n```\n',
    );
    assert.deepEqual(blocks, [
      { script: 'echo a\n', expected: 'a…\n' },
      { script: 'true\n', expected: undefined },
    ]);
    assert.ok(matchesOutput('abc\n', 'a…\n'));
    assert.ok(!matchesOutput('abc\nmore\n', 'a…\n'));
    assert.ok(!matchesOutput('xbc\n', 'a…\n'));
  });

  it('runs every sh block in order, each printing what the README shows, and the pages it names open', async (t) => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = pathBlocks(readme);
    assert.ok(blocks.length >= 6, 'the README has its path');
    const dataDir = join(scratch, 'data');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      TMPDIR: scratch,
      PORT: String(await freePort()),
      SIMULATOR_PORT: String(await freePort()),
      RECEIVER_PORT: String(await freePort()),
    };
    for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'NODE_ENV', 'PUBLIC_BASE_URL']) delete env[name];
    const session = bashSession(env);
    const pages: Array<{ after: number; variable: string; shows: string[] }> = [
      // After the scan: Bea's badge page.
      {
        after: blocks.findIndex((b) => b.script.includes('check-ins')),
        variable: 'BADGE_URL',
        shows: ['Bea Costa'],
      },
      // After the certificate: its verification page.
      {
        after: blocks.findIndex((b) => b.script.includes('VERIFY_URL=')),
        variable: 'VERIFY_URL',
        shows: ['Bea Costa', 'Certificate of attendance'],
      },
    ];
    for (const [index, block] of blocks.entries()) {
      const result = await session.run(block.script);
      assert.equal(result.status, 0, `block ${index} ends with status 0:\n${block.script}\n${result.stderr}`);
      if (block.expected !== undefined) {
        assert.ok(
          matchesOutput(result.output, block.expected),
          `block ${index} prints what the README shows:\n${block.script}\nexpected:\n${block.expected}\nactual:\n${result.output}\nstderr:\n${result.stderr}`,
        );
      }
      for (const page of pages.filter((p) => p.after === index)) {
        const url = await session.variable(page.variable);
        const opened = await browser.get(t);
        if (opened === undefined) continue;
        const tab = await opened.newPage();
        const errors: string[] = [];
        tab.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        const response = await tab.goto(url);
        assert.equal(response?.status(), 200, `${page.variable} ${url} opens`);
        const text = await tab.locator('body').innerText();
        for (const shown of page.shows) assert.ok(text.includes(shown), `${url} shows ${shown}`);
        assert.deepEqual(errors, [], `${url} logs no console error`);
        await tab.close();
      }
    }
  });
});
