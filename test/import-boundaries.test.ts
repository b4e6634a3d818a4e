/**
 * The import-boundary rule of `biome.json` (ARCHITECTURE.md, rule 16): a feature folder of a
 * module never imports another feature's `*.table.ts` or `*.repository.ts` (the kernel's are
 * shared). `npm run lint` applies it to `src/modules`; this test shows it catching a deliberate
 * violation, by linting a probe file placed as a badges source file in a scratch copy of the
 * configuration.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

describe('import boundaries between feature folders', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'convene-boundaries-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  // The scratch directory is no git repository.
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify({ ...config, vcs: { enabled: false } }));

  function lint(source: string) {
    const dir = join(scratch, 'src', 'modules', 'events', 'badges');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'probe.service.ts'), source);
    const run = spawnSync(BIOME, ['lint', '--max-diagnostics=50', 'src'], { cwd: scratch, encoding: 'utf8' });
    const output = `${run.stdout}${run.stderr}`;
    const flagged = [...output.matchAll(/probe\.service\.ts:(\d+):\d+ lint\/style\/noRestrictedImports/g)];
    return { status: run.status, lines: flagged.map((match) => Number(match[1])) };
  }

  it("refuses another feature's table and repository, and allows the kernel's and an index.ts", () => {
    const result = lint(
      [
        "import { registrations } from '../registrations/registrations.table.ts';",
        "import { findTicketType } from '../tickets/tickets.repository.ts';",
        "import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';",
        "import { jobs } from '../../../kernel/jobs/jobs.table.ts';",
        "import { register } from '../registrations/index.ts';",
        "import { emitParticipantBadge } from './badges.emission.ts';",
        'export const used = [registrations, findTicketType, scheduleJob, jobs, register, emitParticipantBadge];',
        '',
      ].join('\n'),
    );
    assert.equal(result.status, 1);
    assert.deepEqual(result.lines, [1, 2]);
  });

  it('passes a feature that imports only its own files, the kernel and index.ts files', () => {
    const result = lint(
      [
        "import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';",
        "import { register } from '../registrations/index.ts';",
        "import { emitParticipantBadge } from './badges.emission.ts';",
        'export const used = [scheduleJob, register, emitParticipantBadge];',
        '',
      ].join('\n'),
    );
    assert.deepEqual(result, { status: 0, lines: [] });
  });
});

/**
 * A few features lend their table to the joins of the features above them (exported from their
 * index.ts: events, editions, programs, registrations, …): read-only. Every insert, update and
 * delete of a table is written in the feature that owns it, where its rules are (a registration's
 * status in registrations.transitions.ts). Checked on the sources: a file that imports another
 * feature's table through its index.ts never passes it to insert, update or delete.
 */
describe("another feature's table, lent for joins", () => {
  const MODULES = join(ROOT, 'src', 'modules');
  const featureOf = (path: string) => relative(MODULES, path).split(sep).slice(0, 2).join('/');
  const sources = (readdirSync(MODULES, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !/\.(test|fixtures)\.ts$/.test(file))
    .map((file) => join(MODULES, file));
  /** Each feature's tables: `export const name = pgTable(` in its `*.table.ts` files. */
  const tablesOf = new Map<string, Set<string>>();
  for (const file of sources.filter((path) => path.endsWith('.table.ts'))) {
    const names = [...readFileSync(file, 'utf8').matchAll(/export const (\w+) = pgTable\(/g)].map(
      (m) => m[1]!,
    );
    const feature = featureOf(file);
    tablesOf.set(feature, new Set([...(tablesOf.get(feature) ?? []), ...names]));
  }

  /** The tables of other features a source file imports from their index.ts, with its write calls. */
  function borrowed(file: string, text = readFileSync(file, 'utf8')) {
    const names: string[] = [];
    for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+\/index\.ts)'/g)) {
      const owner = featureOf(join(dirname(file), match[2]!));
      if (owner === featureOf(file)) continue;
      for (const spec of match[1]!.split(',')) {
        const [name, alias] = spec
          .replace(/^\s*type\s+/, '')
          .trim()
          .split(/\s+as\s+/);
        if (name !== undefined && tablesOf.get(owner)?.has(name)) names.push(alias ?? name);
      }
    }
    const writes = names.filter((name) =>
      new RegExp(`\\.(insert|update|delete)\\(\\s*${name}\\b`).test(text),
    );
    return { names, writes };
  }

  it('lets features read the tables lent to them, and write none', () => {
    const lent = sources.map((file) => ({ file: relative(ROOT, file), ...borrowed(file) }));
    assert.ok(
      lent.some((entry) => entry.names.length > 0),
      'some feature joins a table lent to it (else this check checks nothing)',
    );
    assert.deepEqual(
      lent
        .filter((entry) => entry.writes.length > 0)
        .map((entry) => `${entry.file}: ${entry.writes.join(', ')}`),
      [],
    );
  });

  it('catches a write to a lent table', () => {
    const probe = join(MODULES, 'events', 'badges', 'probe-write.repository.ts');
    const source = [
      "import { registrations } from '../registrations/index.ts';",
      'export const f = (db: Database) => db.update(registrations).set({});',
    ].join('\n');
    assert.deepEqual(borrowed(probe, source), { names: ['registrations'], writes: ['registrations'] });
  });
});
