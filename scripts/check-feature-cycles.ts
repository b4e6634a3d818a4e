/**
 * The feature folders' boundaries (ARCHITECTURE.md, rule 16), on madge's file graph:
 * - no import cycle spans two feature folders. `madge --circular` finds file cycles only; this
 *   script lifts the graph to folders and fails on every strongly connected component of more
 *   than one node, printing the imports that close it;
 * - a feature is imported through its `index.ts`, its public surface, and nothing else of it.
 *   Two kinds of file are exempt: a `*.table.ts` names another feature's table for its foreign
 *   keys, and a `*.worker.ts` (a worker thread's task module) loads only the renderers its thread
 *   runs, not a feature's routes and services.
 *
 * Nodes: each feature folder `src/modules/<module>/<feature>/`, and each file at a module's root
 * (`events/deps.ts`, `payments/access.ts`, …) on its own. Kernel, flows and system code are
 * outside the graph: the kernel imports no module, and flows sit above the modules they join.
 * Tests and fixtures are left out: they may reach anywhere they need to set a scene.
 *
 * Usage: node --import tsx scripts/check-feature-cycles.ts  (exit 1 on a cycle)
 */
import madge from 'madge';

export type Graph = Record<string, string[]>;

/** The folder node a source path (relative to src/) belongs to, or null when outside the graph. */
export function nodeOf(file: string): string | null {
  if (/\.test\.ts$|\.fixtures\.ts$/.test(file)) return null;
  const feature = file.match(/^modules\/([^/]+)\/([^/]+)\//);
  if (feature) return `${feature[1]}/${feature[2]}/`;
  const root = file.match(/^modules\/([^/]+)\/([^/]+\.ts)$/);
  return root ? `${root[1]}/${root[2]}` : null;
}

export interface FolderCycle {
  nodes: string[];
  /** One file import for every folder edge inside the cycle. */
  imports: string[];
}

/** Strongly connected components (Tarjan) of the folder graph lifted from a file graph. */
export function folderCycles(files: Graph): FolderCycle[] {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, deps] of Object.entries(files)) {
    const from = nodeOf(file);
    if (!from) continue;
    for (const dep of deps) {
      const to = nodeOf(dep);
      if (!to || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} -> ${dep}`);
      edges.set(from, out);
    }
  }
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((out) => [...out.keys()])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: FolderCycle[] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length < 2) return;
    const inside = new Set(component);
    const imports = component.flatMap((from) =>
      [...(edges.get(from) ?? new Map<string, string>()).entries()]
        .filter(([to]) => inside.has(to))
        .map(([, example]) => example),
    );
    cycles.push({ nodes: component.sort(), imports: imports.sort() });
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Imports of another feature's files other than its `index.ts` (see the exemptions above). */
export function surfaceBypasses(files: Graph): string[] {
  const bypasses: string[] = [];
  for (const [file, deps] of Object.entries(files)) {
    const from = nodeOf(file);
    if (!from || /\.(table|worker)\.ts$/.test(file)) continue;
    for (const dep of deps) {
      const to = nodeOf(dep);
      if (!to?.endsWith('/') || to === from || dep === `modules/${to}index.ts`) continue;
      bypasses.push(`${file} -> ${dep}`);
    }
  }
  return bypasses.sort();
}

async function main(): Promise<void> {
  const files = (await madge('src', { fileExtensions: ['ts'] })).obj();
  const cycles = folderCycles(files);
  const bypasses = surfaceBypasses(files);
  for (const cycle of cycles) {
    console.error(`Cycle between ${cycle.nodes.length} feature folders: ${cycle.nodes.join(', ')}`);
    for (const line of cycle.imports) console.error(`  ${line}`);
  }
  if (bypasses.length > 0) {
    console.error("Imports of another feature's files past its index.ts:");
    for (const line of bypasses) console.error(`  ${line}`);
  }
  if (cycles.length > 0 || bypasses.length > 0) {
    process.exitCode = 1;
    return;
  }
  console.log("No import cycle spans two feature folders; features import each other's index.ts only.");
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
