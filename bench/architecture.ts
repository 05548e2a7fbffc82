/**
 * The shape of the code, measured: folders, files, import cycles, files over 400 lines and the
 * longest chain of imports, of `src/` here or of another checkout:
 *
 *     npm run bench:architecture [-- <checkout> ...]
 *
 * Several checkouts give one row each (a `git worktree` of an older commit shows what a change
 * did). The folder table lists each folder's files and lines, largest first.
 */
import { join, resolve } from 'node:path';
import { type ImportGraph, readImportGraph } from './import-graph.js';
import { printTable } from './table.js';

/** Longer than this, a source file is over the project's limit (docs/design.md). */
const MAX_LINES = 400;

const checkouts = process.argv.slice(2);
const roots = checkouts.length > 0 ? checkouts : ['.'];

const rows = roots.map((checkout) => {
  const graph = readImportGraph(join(resolve(checkout), 'src'));
  const over = graph.files.filter((f) => f.lines > MAX_LINES);
  const inCycles = graph.cycles.reduce((sum, cycle) => sum + cycle.length, 0);
  return {
    checkout,
    graph,
    cells: [
      checkout,
      String(graph.folders.length),
      String(graph.files.length),
      String(graph.files.reduce((sum, f) => sum + f.lines, 0)),
      String(graph.files.reduce((sum, f) => sum + f.imports.length, 0)),
      `${graph.cycles.length} (${inCycles} files)`,
      String(over.length),
      String(chainLength(graph)),
    ],
  };
});

printTable(
  [
    'checkout',
    'folders',
    'files',
    'lines',
    'imports',
    'cycles',
    `files > ${MAX_LINES} lines`,
    'longest chain',
  ],
  rows.map((r) => r.cells),
);

for (const { checkout, graph } of rows) {
  console.log(`\n${checkout}: folders`);
  const folders = graph.folders.map((folder) => {
    const files = graph.files.filter((f) => f.folder === folder);
    return { folder, files: files.length, lines: files.reduce((sum, f) => sum + f.lines, 0) };
  });
  folders.sort((a, b) => b.files - a.files || a.folder.localeCompare(b.folder));
  printTable(
    ['folder', 'files', 'lines'],
    folders.map((f) => [f.folder === '' ? '(src)' : f.folder, String(f.files), String(f.lines)]),
  );
  const over = graph.files.filter((f) => f.lines > MAX_LINES).sort((a, b) => b.lines - a.lines);
  if (over.length > 0)
    console.log(`over ${MAX_LINES} lines: ${over.map((f) => `${f.path} ${f.lines}`).join(', ')}`);
  for (const cycle of graph.cycles) console.log(`cycle: ${cycle.join(' ')}`);
  const steps = graph.longestChain.map((step) =>
    step.length === 1 ? step[0]! : `{cycle: ${step.join(' ')}}`,
  );
  console.log(`longest chain (${chainLength(graph)}): ${steps.join(' -> ')}`);
}

/** Files along the longest chain; a cycle on it counts each of its files. */
function chainLength(graph: ImportGraph): number {
  return graph.longestChain.reduce((sum, step) => sum + step.length, 0);
}
