/**
 * The documents that describe the code must stay true to it:
 * - ARCHITECTURE.md's module map: every file or folder it lists exists, and every name it says a
 *   file exports is exported by that file;
 * - anywhere in ARCHITECTURE.md: every file named in backticks exists, and every function named as
 *   a call (`name()`) is exported somewhere in the code;
 * - docs/reference/errors.md's table of error codes equals the codes and statuses of
 *   `kernel/http/errors.ts`, and its table of error reasons lists exactly the reasons of
 *   `kernel/http/reasons.ts`;
 * - in README.md, ARCHITECTURE.md and the .md files of docs/ (outside fenced code blocks): every file named
 *   in backticks exists, every name in backticks that can only be code (`name()`, `camelCase`,
 *   `PascalCase` with two humps, `UPPER_SNAKE`, `t.post<A, B>(…)` with its type arguments) occurs in
 *   the code, and every relative link reaches an existing file and heading.
 * - src/ and test/ cite only the repository's own documents: none of the old service specification
 * or interface document by section or operation number (they are not in the repository), and every
 * `docs/reference/<page>.md#anchor` they
 *   cite exists.
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
const codeFiles = repoFiles.filter((file) => /^(src|test|bench)\/.*\.ts$|^web\/.*\.tsx?$/.test(file));

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

/** The page with the closed lists of error codes and reasons. */
const ERRORS_PAGE = 'docs/reference/errors.md';

describe(ERRORS_PAGE, () => {
  it('lists exactly the error codes of the code, with their statuses', () => {
    const errors = read(ERRORS_PAGE);
    const start = errors.indexOf('## Error codes');
    assert.ok(start >= 0, `${ERRORS_PAGE} has the error code table`);
    const table = errors.slice(start).split('\n\n')[1] ?? '';
    const documented = [...table.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map(
      (match) => [match[1]!, Number(match[2])] as const,
    );
    assert.deepEqual(
      Object.fromEntries(documented),
      { ...ERROR_STATUS },
      'error code table = ERROR_STATUS of kernel/http/errors.ts',
    );
    assert.equal(documented.length, Object.keys(ERROR_STATUS).length, 'each code once');
  });

  it('lists exactly the error reasons of the code, each once with a code that exists', () => {
    const errors = read(ERRORS_PAGE);
    const start = errors.indexOf('## Error reasons');
    assert.ok(start >= 0, `${ERRORS_PAGE} has the error reason table`);
    const table = errors.slice(start).split('\n\n')[2] ?? '';
    const rows = [...table.matchAll(/^\|\s*`([A-Z_]+)`\s*(\d{3})\s*\|\s*`([a-z0-9_]+)`\s*\|/gm)];
    const wrongCodes = rows
      .filter((row) => ERROR_STATUS[row[1] as keyof typeof ERROR_STATUS] !== Number(row[2]))
      .map((row) => `${row[3]}: ${row[1]} ${row[2]}`);
    assert.deepEqual(wrongCodes, [], 'each reason row names a code with its status');
    const documented = rows.map((row) => row[3]!);
    assert.deepEqual(
      [...documented].sort(),
      [...ERROR_REASON_NAMES].sort(),
      'documented reasons = reasons.ts',
    );
    assert.equal(new Set(documented).size, documented.length, 'each reason once');
  });
});

/** The Markdown documents of the repository that describe the code. */
const docs = ['README.md', 'ARCHITECTURE.md', ...repoFiles.filter((file) => /^docs\/.*\.md$/.test(file))];

/** A document's text outside fenced code blocks (examples may name anything). */
function prose(file: string): string {
  return read(file).replace(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```[^\n]*$/gm, '');
}

/** Every inline code span of the documents, with the document naming it. */
const spans = docs.flatMap((file) =>
  [...prose(file).matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)].map((match) => ({ file, text: match[1]!.trim() })),
);

/** The code the documents may name: source, tests, benchmarks, scripts, examples, and the tools' settings. */
const sourceFiles = repoFiles.filter(
  (file) =>
    // Not this file: it names things only to describe its checks.
    (/^(src|test|bench|scripts|examples|web)\/.*\.(ts|tsx|mts|mjs|js)$/.test(file) &&
      file !== 'test/docs-truth.test.ts') ||
    /^(package|tsconfig[\w.]*|biome)\.json$/.test(file),
);
const sourceText = sourceFiles.map((file) => read(file)).join('\n');
const sourceWords = new Set(sourceText.match(/[A-Za-z_$][\w$]*/g));

/**
 * Names the documents cite that are not this repository's code, each for a stated reason: files
 * `npm run openapi` and `npm run build` generate (git-ignored), and functions of SQL, PostgreSQL and
 * libraries.
 */
const NOT_OURS = new Set([
  'build/openapi.json', // written by `npm run openapi`
  'convene-api.d.ts', // written by `npm run openapi` into test/integrator/
  'test/integrator/convene-api.d.ts',
  'dist/', // written by `npm run build` (and `npm start`'s prestart)
  'dist/worker.js',
  'build/console/', // written by `npm run build` (and `npm start`'s prestart) from web/console/
  'range', // ipaddr.js
  'pg_notify', // PostgreSQL
  'listen', // PostgreSQL LISTEN
  'count', // SQL
  'convene_uuidv7', // a SQL function of the migrations
  'make_interval', // PostgreSQL
  'now', // SQL
  'greatest', // SQL
]);

/** Where a file a document names may be: from the root, from src/, beside the document, by name. */
function fileExists(name: string, doc: string): boolean {
  if (name.includes('*')) {
    const pattern = new RegExp(`(^|/)${name.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
    return repoFiles.some((file) => pattern.test(file));
  }
  const bare = name.replace(/^\.\//, '').replace(/\/$/, '');
  return (
    existsSync(join(ROOT, bare)) ||
    existsSync(join(ROOT, 'src', bare)) ||
    existsSync(join(ROOT, dirname(doc), bare)) ||
    repoFiles.some(
      (file) =>
        file === bare ||
        file.endsWith(`/${bare}`) ||
        file.startsWith(`${bare}/`) ||
        file.includes(`/${bare}/`),
    )
  );
}

/** How many type arguments the code gives `name<…>(` anywhere, as a set of counts. */
function typeArgumentCounts(name: string): Set<number> {
  const counts = new Set<number>();
  for (const match of sourceText.matchAll(
    new RegExp(`\\.${name}<([^<>()]*(?:<[^<>]*>[^<>()]*)*)>\\(`, 'g'),
  )) {
    counts.add(match[1]!.split(',').length);
  }
  return counts;
}

describe('README.md, ARCHITECTURE.md and docs/', () => {
  it('name only files that exist', () => {
    const missing = spans
      // A file by its extension, or a folder by its final slash (`kernel/db/`).
      .filter(({ text }) =>
        /^[\w./*-]+\.(?:ts|mts|mjs|js|md|json|sql|ya?ml|html|png)$|^[\w.-]+(?:\/[\w.-]+)*\/$/.test(text),
      )
      .filter(({ text }) => !text.startsWith('/') && !text.startsWith('DATA_DIR/') && !NOT_OURS.has(text))
      .filter(({ text, file }) => !fileExists(text, file))
      .map(({ text, file }) => `${file}: ${text}`);
    assert.deepEqual([...new Set(missing)], [], 'every file named in the documents exists');
  });

  it('name only functions, types and variables that occur in the code', () => {
    const missing: string[] = [];
    // A document may introduce a name in an example of its own (a fenced block) and then discuss it.
    const exampleWords = new Map(
      docs.map((file) => {
        const blocks = read(file).match(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```/gm) ?? [];
        return [file, new Set(blocks.join('\n').match(/[A-Za-z_$][\w$]*/g))] as const;
      }),
    );
    for (const { text, file } of spans) {
      // `name()`, `name(args)`, `a.b.name(args)`, `name<T>(args)`: the last name is a function.
      const call = /^(?:[\w$]+\.)*([A-Za-z_$][\w$]*)(<[^`]*>)?\([^`]*\)$/.exec(text);
      // A name that can only be code: camelCase, PascalCase with two humps, UPPER_SNAKE.
      const bare =
        /^(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])$/.exec(
          text,
        );
      const name = call?.[1] ?? bare?.[0];
      if (name === undefined || NOT_OURS.has(name)) continue;
      if (!sourceWords.has(name) && !exampleWords.get(file)?.has(name)) {
        missing.push(`${file}: ${text}`);
        continue;
      }
      const typeArguments = call?.[2];
      if (typeArguments !== undefined && text.includes('.')) {
        const arity = typeArguments.slice(1, -1).split(',').length;
        if (!typeArgumentCounts(name).has(arity))
          missing.push(`${file}: ${text} (no call with ${arity} type arguments)`);
      }
    }
    assert.deepEqual(
      [...new Set(missing)],
      [],
      'every code name in the documents occurs in src/, test/, bench/, scripts/ or examples/',
    );
  });

  it('describe every route of the code in docs/reference', () => {
    const reference = repoFiles
      .filter((file) => file.startsWith('docs/reference/') && file.endsWith('.md'))
      .map((file) => read(file))
      .join('\n');
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const undocumented: string[] = [];
    let routes = 0;
    for (const file of codeFiles.filter((name) => name.startsWith('src/') && !name.endsWith('.test.ts'))) {
      const source = read(file);
      for (const match of source.matchAll(
        /\bapp\.(get|post|put|patch|delete|options)(?:<[^>]*>)?\(\s*(['`])([^'`]+)\2/g,
      )) {
        routes += 1;
        const method = match[1]!.toUpperCase();
        // Fastify's `:name(regex)` is `{name}` in the reference, and `::` a literal colon.
        const url = match[3]!
          .replaceAll('::', '\u0000')
          .replace(/:([a-z_]+)(\([^)]*\))?/g, '{$1}')
          .replaceAll('\u0000', ':');
        // A route made by a factory for several owners (`${prefix}/email-templates`): its `${…}`
        // stands for any documented prefix.
        const pattern = url
          .split(/\$\{[^}]+\}/)
          .map(literal)
          .join('/[^`]*');
        const query = '(\\?[^`]*)?`';
        const row = new RegExp(`^\\|\\s*[A-Z, ]*\\b${method}\\b[A-Z, ]*\\|\\s*\`${pattern}${query}`, 'm');
        const mention = new RegExp(`\`${method} ${pattern}${query}`);
        if (!row.test(reference) && !mention.test(reference)) {
          undocumented.push(`${method} ${url} (${file})`);
        }
      }
    }
    assert.ok(routes >= 100, `the routes of the code are found (${routes})`);
    assert.deepEqual(
      undocumented,
      [],
      'a route of the code has a row (or a `METHOD /path` mention) in docs/reference',
    );
  });

  it('link only to files and headings that exist', () => {
    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const anchorsOf = (file: string): Set<string> => {
      const text = read(file);
      const anchors = new Set<string>();
      const seen = new Map<string, number>();
      for (const match of prose(file).matchAll(/^#{1,6}\s+(.+)$/gm)) {
        const base = slug(match[1]!);
        const count = seen.get(base) ?? 0;
        anchors.add(count === 0 ? base : `${base}-${count}`);
        seen.set(base, count + 1);
      }
      for (const match of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(match[1]!);
      return anchors;
    };
    const broken: string[] = [];
    for (const file of docs) {
      for (const match of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path).replace(/\\/g, '/');
        if (!existsSync(join(ROOT, resolved))) {
          broken.push(`${file}: ${target} (no file ${resolved})`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
          broken.push(`${file}: ${target} (no heading #${anchor})`);
        }
      }
    }
    assert.deepEqual(broken, [], 'every relative link of the documents reaches a file and a heading');
  });
});

describe('src/ and test/', () => {
  const files = repoFiles.filter(
    (file) =>
      /^(src|test)\//.test(file) && file !== 'test/docs-truth.test.ts' && !/\.(png|pdf|gz)$/.test(file),
  );

  it('cite no document outside the repository', () => {
    // The old service specification and interface document were never in the repository; the
    // code cites docs/reference/ instead. (Spelled in pieces so that this file does not match itself.)
    const word = ['con', 'tract'].join('');
    const outside = new RegExp(
      `\\b[${word[0]!.toUpperCase()}${word[0]}]${word.slice(1)}s?\\b|\\binterface ${'operation'}|\\b[Oo]perations? \\d`,
    );
    const found = files.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (outside.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(found, [], 'cite docs/reference/<page>.md (or docs/decisions.md) instead');
  });

  it('cite only pages and headings of docs/reference that exist', () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const broken: string[] = [];
    for (const file of files) {
      for (const match of read(file).matchAll(/docs\/reference\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        const page = `docs/reference/${match[1]}`;
        if (!existsSync(join(ROOT, page))) {
          broken.push(`${file}: ${match[0]}`);
          continue;
        }
        const anchor = match[2];
        if (anchor === undefined) continue;
        const headings = [...prose(page).matchAll(/^#{1,6}\s+(.+)$/gm)].map((heading) => slug(heading[1]!));
        if (!headings.includes(anchor)) broken.push(`${file}: ${match[0]} (no such heading)`);
      }
    }
    assert.deepEqual([...new Set(broken)], []);
  });
});
