/**
 * The code keeps the shape docs/design.md draws. The map at the top of that page lists every
 * folder of src/ (and each file at its root) with what it may import; this test reads the map
 * and fails when:
 *
 * - a folder exists that the map does not list, or the map lists one that does not exist;
 * - an import crosses a line the map does not draw (a folder may always import its own files
 *   and the folders below it; a subfolder may import what its parent may, and what its own row
 *   adds);
 * - a file outside a concept subfolder (a folder two or more levels down with an `index.ts`)
 *   imports one of its files other than that `index.ts`, its public face;
 * - any two files import each other, directly or around a longer cycle (type-only imports
 *   count: they bind the files' meanings as tightly);
 * - a source file is longer than 400 lines, but for the few listed below with their reason.
 *
 * The import graph comes from TypeScript's own import reader (bench/import-graph.ts), which
 * `npm run bench:architecture` prints as numbers.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readImportGraph, type SourceFile } from '../../bench/import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const DESIGN = fileURLToPath(new URL('../../docs/design.md', import.meta.url));

/** The longest a source file may be: past it, a file holds more than one idea. */
const MAX_LINES = 400;

/**
 * Files allowed past MAX_LINES, each with why splitting it would make it harder to read. Keep
 * this list short; a file leaves it as soon as it can be split by idea.
 */
const LONG_FILES: Readonly<Record<string, string>> = {};

interface MapRow {
  /** A folder (`agent/plan-loop`) or a file at the root of src (`errors.ts`). */
  readonly entry: string;
  /** Folders (`run`) and files (`errors.ts`) it may import; null for anything. */
  readonly mayImport: readonly string[] | null;
  /** With `anything but`: what it may still not import. */
  readonly except: readonly string[];
}

/** The rows of the first table of docs/design.md: | `folder/` | owns | may import |. */
function readMap(): MapRow[] {
  const text = readFileSync(DESIGN, 'utf8');
  const rows: MapRow[] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (/^\| folder \| owns \| may import \|$/.test(line)) inTable = true;
    else if (inTable && !line.startsWith('|')) break;
    else if (inTable && !line.startsWith('|---')) {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, ''));
      const entry = /^`([^`]+)`$/.exec(cells[0]!.trim())?.[1];
      if (!entry) throw new Error(`docs/design.md: a map row without a folder in backticks: ${line}`);
      const imports = cells[2]!;
      const named = [...imports.matchAll(/`([^`]+)`/g)].map((m) => strip(m[1]!));
      if (/^anything/.test(imports)) rows.push({ entry: strip(entry), mayImport: null, except: named });
      else rows.push({ entry: strip(entry), mayImport: named, except: [] });
    }
  }
  return rows;
}

/** `run/` is the folder `run`; `errors.ts` stays a file. */
function strip(entry: string): string {
  return entry.replace(/\/$/, '');
}

function isUnder(path: string, folder: string): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}

function parentOf(folder: string): string | null {
  if (folder === '') return null;
  const slash = folder.lastIndexOf('/');
  return slash < 0 ? '' : folder.slice(0, slash);
}

const graph = readImportGraph(SRC);
const map = readMap();
const rowOf = new Map(map.map((row) => [row.entry, row]));

/** The row that governs a file: its own (a file at the root of src), or its folder's. */
function governing(file: SourceFile): string {
  return file.folder === '' ? file.path : file.folder;
}

/** Whether a file governed by `entry` may import `target` (a path under src). */
function mayImport(entry: string, target: string): boolean {
  const ownFolder = entry.endsWith('.ts') ? null : entry;
  if (ownFolder !== null && isUnder(target, ownFolder)) return true;
  for (let at: string | null = entry; at !== null; at = at.endsWith('.ts') ? null : parentOf(at)) {
    const row = rowOf.get(at);
    if (!row) continue;
    if (row.mayImport === null) return !row.except.some((e) => isUnder(target, e) || target === e);
    if (row.mayImport.some((allowed) => target === allowed || isUnder(target, allowed))) return true;
  }
  return false;
}

/** Concept subfolders: two or more levels down, with an index.ts as their face. */
const faces = new Set(
  graph.files.filter((f) => f.path.endsWith('/index.ts') && f.folder.includes('/')).map((f) => f.folder),
);

describe('the shape of src/', () => {
  it('docs/design.md maps every folder of src/ and every file at its root, and nothing else', () => {
    const actual = new Set([
      ...graph.folders.filter((folder) => folder !== ''),
      ...graph.files.filter((f) => f.folder === '').map((f) => f.path),
    ]);
    expect(new Set(map.map((row) => row.entry))).toEqual(actual);
  });

  it('every import stays within the lines the map draws', () => {
    const crossings: string[] = [];
    for (const file of graph.files) {
      const entry = governing(file);
      for (const target of file.imports) {
        if (!mayImport(entry, target))
          crossings.push(`${file.path} -> ${target} (${entry} may not import it)`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('a concept subfolder is imported from outside only through its index.ts', () => {
    const deep: string[] = [];
    for (const file of graph.files) {
      for (const target of file.imports) {
        for (const face of faces) {
          if (isUnder(target, face) && !isUnder(file.path, face) && target !== `${face}/index.ts`) {
            deep.push(`${file.path} -> ${target} (import ${face}/index.ts instead)`);
          }
        }
      }
    }
    expect(deep).toEqual([]);
  });

  it('no import cycle, type-only imports included', () => {
    expect(graph.cycles.map((cycle) => cycle.join(' '))).toEqual([]);
  });

  it(`no source file is over ${MAX_LINES} lines, but the listed exceptions`, () => {
    const over = graph.files.filter((f) => f.lines > MAX_LINES && !(f.path in LONG_FILES));
    expect(over.map((f) => `${f.path}: ${f.lines} lines`)).toEqual([]);
    // An exception that no longer needs to be one leaves the list.
    for (const path of Object.keys(LONG_FILES)) {
      const file = graph.files.find((f) => f.path === path);
      expect(file && file.lines > MAX_LINES, `${path} is listed in LONG_FILES`).toBe(true);
    }
  });
});
