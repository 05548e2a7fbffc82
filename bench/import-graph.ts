/**
 * The import graph of a source tree: every `.ts` file under a folder, the files each imports
 * (static imports and re-exports, type-only ones included, and dynamic `import()` of a relative
 * path), its import cycles, its longest chain of imports, its folders and the length of each
 * file. What docs/design.md's map and test/architecture check, and `npm run bench:architecture`
 * measures.
 *
 * Imports are read with TypeScript's own pre-processor (`ts.preProcessFile`): the specifiers
 * as the compiler sees them, without a type check, so the whole tree is read in well under a
 * second. Only relative specifiers are followed; a package is not a file of the tree.
 *
 * Cycles are strongly connected components (Tarjan's algorithm, iterative: a deep chain of
 * imports never touches the stack); the longest chain is the longest path in the graph of
 * those components, counted in files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Path relative to the tree's root, with `/` separators (`run/runner.ts`). */
  readonly path: string;
  /** Its folder, relative to the root (`run`, `agent/plan-loop`, `` for the root itself). */
  readonly folder: string;
  readonly lines: number;
  /** The files of the tree it imports, as paths relative to the root. */
  readonly imports: readonly string[];
}

export interface ImportGraph {
  readonly files: readonly SourceFile[];
  /** Each cycle: the files of one strongly connected component of two or more files (or one that imports itself). */
  readonly cycles: readonly (readonly string[])[];
  /**
   * The longest chain of imports, first importer to last imported: each step is one file, or the
   * files of a cycle (which all reach each other, so each counts once).
   */
  readonly longestChain: readonly (readonly string[])[];
  /** Every folder that holds a file, relative to the root. */
  readonly folders: readonly string[];
}

/** Reads every `.ts` file under `root` (a folder such as `src`) and its imports. */
export function readImportGraph(root: string): ImportGraph {
  const absoluteRoot = resolve(root);
  const paths = listSources(absoluteRoot);
  const known = new Set(paths);
  const files: SourceFile[] = paths.map((path) => {
    const text = readFileSync(join(absoluteRoot, path), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const imports = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveSpecifier(path, ref.fileName, known);
      if (target !== undefined) imports.add(target);
    }
    return {
      path,
      folder: folderOf(path),
      lines: text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length,
      imports: [...imports].sort(),
    };
  });
  const components = stronglyConnected(files);
  const cycles = components.filter(
    (component) => component.length > 1 || files[component[0]!]!.imports.includes(files[component[0]!]!.path),
  );
  return {
    files,
    cycles: cycles.map((component) => component.map((i) => files[i]!.path).sort()),
    longestChain: longestChain(files, components),
    folders: [...new Set(files.map((f) => f.folder))].sort(),
  };
}

/** Every `.ts` file under `root` (not `.d.ts`), relative, with `/` separators, sorted. */
function listSources(root: string): string[] {
  const out: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const name of readdirSync(join(root, folder))) {
      const path = folder === '' ? name : `${folder}/${name}`;
      if (statSync(join(root, path)).isDirectory()) pending.push(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
    }
  }
  return out.sort();
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The tree's file a relative specifier names (`./x.js` is `x.ts`; a folder is its `index.ts`). */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const joined = relative('.', join(dirname(from), specifier))
    .split(sep)
    .join('/');
  const base = joined.replace(/\.(js|ts|mjs)$/, '');
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (known.has(candidate)) return candidate;
  return undefined;
}

/** Tarjan's strongly connected components, iteratively; each as file indices. */
function stronglyConnected(files: readonly SourceFile[]): number[][] {
  const indexOf = new Map(files.map((f, i) => [f.path, i]));
  const edges = files.map((f) => f.imports.map((p) => indexOf.get(p)!));
  const n = files.length;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let start = 0; start < n; start++) {
    if (order[start] !== -1) continue;
    // Each frame: a file and the next of its imports to look at.
    const frames: [number, number][] = [[start, 0]];
    order[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const [v, k] = frame;
      if (k < edges[v]!.length) {
        frame[1]++;
        const w = edges[v]![k]!;
        if (order[w] === -1) {
          order[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, order[w]!);
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === order[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component);
      }
    }
  }
  return components;
}

/**
 * The longest chain of imports: the longest path through the components (Tarjan's algorithm
 * gives them in reverse topological order: a component comes after every component it imports).
 */
function longestChain(files: readonly SourceFile[], components: readonly number[][]): string[][] {
  const componentOf = new Int32Array(files.length);
  components.forEach((component, c) => component.forEach((i) => (componentOf[i] = c)));
  const indexOf = new Map(files.map((f, i) => [f.path, i]));
  const length = new Int32Array(components.length);
  const next = new Int32Array(components.length).fill(-1);
  for (let c = 0; c < components.length; c++) {
    let best = 0;
    for (const i of components[c]!) {
      for (const p of files[i]!.imports) {
        const d = componentOf[indexOf.get(p)!]!;
        if (d !== c && length[d]! > best) {
          best = length[d]!;
          next[c] = d;
        }
      }
    }
    length[c] = best + components[c]!.length;
  }
  let start = 0;
  for (let c = 1; c < components.length; c++) if (length[c]! > length[start]!) start = c;
  const chain: string[][] = [];
  for (let c = components.length > 0 ? start : -1; c >= 0; c = next[c]!) {
    chain.push(components[c]!.map((i) => files[i]!.path).sort());
  }
  return chain;
}
