/**
 * The import-boundary rule of `biome.json` (ARCHITECTURE.md, rule 16): a feature folder of a
 * module never imports another feature's `*.table.ts` or `*.repository.ts` (the kernel's are
 * shared). `npm run lint` applies it to `src/modules`; this test shows it catching a deliberate
 * violation, by linting a probe file placed as a badges source file in a scratch copy of the
 * configuration.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
