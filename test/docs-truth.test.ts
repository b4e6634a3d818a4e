/**
 * The documents that describe the code must stay true to it:
 * - ARCHITECTURE.md's module map: every file or folder it lists exists, and every name it says a
 *   file exports is exported by that file;
 * - anywhere in ARCHITECTURE.md: every file named in backticks exists, and every function named as
 *   a call (`name()`) is exported somewhere in the code;
 * - README.md's table of error codes equals the codes and statuses of `kernel/http/errors.ts`, and
 *   its table of error reasons lists exactly the reasons of `kernel/http/reasons.ts`.
 * A rename or a deleted file fails here instead of leaving the next engineer a wrong map.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS } from '../src/kernel/http/errors.ts';
import { ERROR_REASON_NAMES } from '../src/kernel/http/reasons.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const architecture = read('ARCHITECTURE.md');

/** The files of the repository (tracked or new, not ignored). */
const repoFiles: string[] = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(ROOT, file)));
const codeFiles = repoFiles.filter((file) => /^(src|test|bench)\/.*\.ts$/.test(file));

/** The names a TypeScript file exports, following `export * from`. */
function exportsOf(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const declared =
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of source.matchAll(declared)) names.add(match[1]!);
  for (const match of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  }
  for (const match of source.matchAll(/^export\s+\*\s+from\s+'([^']+)'/gm)) {
    for (const name of exportsOf(resolve(dirname(file), match[1]!), seen)) names.add(name);
  }
  return names;
}

/** Every name exported anywhere in src/, test/ or bench/. */
const allExports = new Set(codeFiles.flatMap((file) => [...exportsOf(join(ROOT, file))]));

/** The "## Module map" section: `### folder/` headings, each with a table `| file | exports | what |`. */
function moduleMapRows(): { folder: string; entry: string; names: string[]; line: string }[] {
  const start = architecture.indexOf('\n## Module map');
  assert.ok(start >= 0, 'ARCHITECTURE.md has a "## Module map" section');
  const end = architecture.indexOf('\n## ', start + 1);
  const section = architecture.slice(start, end < 0 ? undefined : end);
  const rows: { folder: string; entry: string; names: string[]; line: string }[] = [];
  let folder: string | undefined;
  for (const line of section.split('\n')) {
    const heading = /^###\s+`([^`]+)`/.exec(line);
    if (heading) {
      folder = heading[1]!;
      continue;
    }
    if (!line.startsWith('|') || /^\|\s*(-+|file)\s*\|/.test(line)) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1); // `\|` is a pipe inside a cell
    const entry = /`([^`]+)`/.exec(cells[0] ?? '')?.[1];
    assert.ok(
      folder !== undefined && entry !== undefined,
      `a module-map row under a folder heading: ${line}`,
    );
    const names = [...(cells[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    rows.push({ folder, entry, names, line });
  }
  return rows;
}

describe('ARCHITECTURE.md', () => {
  const rows = moduleMapRows();

  it('maps the code with file tables', () => {
    assert.ok(rows.length >= 50, `the module map lists the code (found ${rows.length} rows)`);
  });

  it('lists only files and folders that exist', () => {
    const missing = rows
      .map(({ folder, entry }) => join(folder, entry))
      .filter((path) => !existsSync(join(ROOT, path)));
    assert.deepEqual(missing, [], 'every file or folder of the module map exists');
  });

  it('names only exports that exist, in the file it names them for', () => {
    const wrong: string[] = [];
    for (const { folder, entry, names } of rows) {
      if (names.length === 0) continue;
      let path = join(ROOT, folder, entry);
      if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.ts');
      if (!existsSync(path)) continue; // reported by the test above
      const exported = exportsOf(path);
      for (const name of names) {
        const bare = name.replace(/\(.*\)$/, '');
        if (!exported.has(bare)) wrong.push(`${join(folder, entry)} does not export ${bare}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lists every source file of src/ in the module map', () => {
    const listed = new Set(rows.map(({ folder, entry }) => join(folder, entry)));
    const unlisted = codeFiles.filter(
      (file) =>
        file.startsWith('src/') &&
        !file.endsWith('.test.ts') &&
        !file.endsWith('.fixtures.ts') &&
        !listed.has(file) &&
        !listed.has(`${dirname(file)}/`),
    );
    assert.deepEqual(unlisted, [], 'every non-test file of src/ has a row (or its folder has one)');
  });

  it('names only files that exist, anywhere in the text', () => {
    const basenames = new Set(repoFiles.map((file) => basename(file)));
    // Paths of the running service (`/docs/openapi.json`) and of DATA_DIR are not repository files.
    const cited = [...architecture.matchAll(/`([\w./*-]+\.(?:ts|md|json|sql|yaml))`/g)]
      .map((match) => match[1]!)
      .filter((name) => !name.startsWith('/') && !name.startsWith('DATA_DIR/'));
    const missing = [...new Set(cited)].filter((name) => {
      if (name.includes('*')) {
        const pattern = new RegExp(`(^|/)${name.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
        return !repoFiles.some((file) => pattern.test(file));
      }
      return (
        !existsSync(join(ROOT, name)) &&
        !existsSync(join(ROOT, 'src', name)) &&
        !basenames.has(name) &&
        !repoFiles.some((file) => file.endsWith(`/${name}`))
      );
    });
    assert.deepEqual(missing, [], 'every file named in ARCHITECTURE.md exists');
  });

  it('names only functions that exist, anywhere in the text', () => {
    const calls = [...architecture.matchAll(/`([A-Za-z_$][\w$]*)\([^`]*\)`/g)].map((match) => match[1]!);
    // Names of libraries', the platform's and SQL's functions, cited as such.
    const external = new Set(['range', 'pg_notify', 'count', 'convene_uuidv7', 'listen']);
    const missing = [...new Set(calls)].filter((name) => !allExports.has(name) && !external.has(name));
    assert.deepEqual(missing, [], 'every function named as a call in ARCHITECTURE.md is exported somewhere');
  });
});

describe('README.md', () => {
  it('lists exactly the error codes of the code, with their statuses', () => {
    const readme = read('README.md');
    const start = readme.indexOf('**Error codes.**');
    assert.ok(start >= 0, 'README.md has the error code table');
    const table = readme.slice(start).split('\n\n')[1] ?? '';
    const documented = [...table.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map(
      (match) => [match[1]!, Number(match[2])] as const,
    );
    assert.deepEqual(
      Object.fromEntries(documented),
      { ...ERROR_STATUS },
      'README error table = ERROR_STATUS of kernel/http/errors.ts',
    );
    assert.equal(documented.length, Object.keys(ERROR_STATUS).length, 'each code once');
  });

  it('lists exactly the error reasons of the code, each once with a code that exists', () => {
    const readme = read('README.md');
    const start = readme.indexOf('**Error reasons.**');
    assert.ok(start >= 0, 'README.md has the error reason table');
    const table = readme.slice(start).split('\n\n')[1] ?? '';
    const rows = [...table.matchAll(/^\|\s*`([A-Z_]+)`\s*(\d{3})\s*\|\s*`([a-z0-9_]+)`\s*\|/gm)];
    const wrongCodes = rows
      .filter((row) => ERROR_STATUS[row[1] as keyof typeof ERROR_STATUS] !== Number(row[2]))
      .map((row) => `${row[3]}: ${row[1]} ${row[2]}`);
    assert.deepEqual(wrongCodes, [], 'each reason row names a code with its status');
    const documented = rows.map((row) => row[3]!);
    assert.deepEqual([...documented].sort(), [...ERROR_REASON_NAMES].sort(), 'README reasons = reasons.ts');
    assert.equal(new Set(documented).size, documented.length, 'each reason once');
  });
});
