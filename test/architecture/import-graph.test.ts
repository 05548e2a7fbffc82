/**
 * The import reader the architecture test and `npm run bench:architecture` stand on: if it
 * missed an import kind or a cycle, the map's test would pass on a tree that breaks the map.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readImportGraph } from '../../bench/import-graph.js';

let root = '';

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('readImportGraph', () => {
  it('reads static, type-only, re-export and dynamic imports, and a folder as its index.ts', () => {
    const graph = readImportGraph(
      tree({
        'a.ts': [
          "import { b } from './b.js';",
          "import type { C } from './sub/c.js';",
          "export { d } from './d.js';",
          "const e = await import('./e.js');",
          "import './sub/index.js';",
          "import { readFileSync } from 'node:fs';",
        ].join('\n'),
        'b.ts': 'export const b = 1;\n',
        'sub/c.ts': 'export type C = 1;\n',
        'sub/index.ts': '\n',
        'd.ts': 'export const d = 1;\n',
        'e.ts': 'export const e = 1;\n',
        'types.d.ts': "import './a.js';\n",
      }),
    );
    const a = graph.files.find((f) => f.path === 'a.ts')!;
    expect(a.imports).toEqual(['b.ts', 'd.ts', 'e.ts', 'sub/c.ts', 'sub/index.ts']);
    expect(a.lines).toBe(6);
    expect(graph.files.map((f) => f.path)).not.toContain('types.d.ts');
    expect(graph.folders).toEqual(['', 'sub']);
    expect(graph.cycles).toEqual([]);
  });

  it('finds a cycle closed by a type-only import, and counts its files once each on the longest chain', () => {
    const graph = readImportGraph(
      tree({
        'top.ts': "import { x } from './x.js';\n",
        'x.ts': "import { y } from './y.js';\nexport const x = y;\n",
        'y.ts': "import type { Z } from './z.js';\nexport const y = 1;\n",
        'z.ts': "import { x } from './x.js';\nimport { leaf } from './leaf.js';\nexport type Z = typeof x;\n",
        'leaf.ts': 'export const leaf = 1;\n',
      }),
    );
    expect(graph.cycles).toEqual([['x.ts', 'y.ts', 'z.ts']]);
    expect(graph.longestChain).toEqual([['top.ts'], ['x.ts', 'y.ts', 'z.ts'], ['leaf.ts']]);
  });

  it('finds a file that imports itself', () => {
    const graph = readImportGraph(tree({ 'self.ts': "import './self.js';\n" }));
    expect(graph.cycles).toEqual([['self.ts']]);
  });
});
