/**
 * The code in README.md and docs/*.md imports only what exists: every value name a page imports
 * from `planmode` or one of its subpaths is exported by that entry point today.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Each entry point's source module, as package.json's exports map builds it. */
const ENTRIES: Record<string, () => Promise<Record<string, unknown>>> = {
  planmode: () => import('../../src/index.js'),
  'planmode/report': () => import('../../src/report/index.js'),
  'planmode/agent': () => import('../../src/agent/index.js'),
  'planmode/adapters': () => import('../../src/adapters/index.js'),
  'planmode/distributed': () => import('../../src/distributed/index.js'),
  'planmode/import': () => import('../../src/import/index.js'),
  'planmode/serve': () => import('../../src/serve/index.js'),
};

/** `import { a, type B, c as d } from 'planmode/x'` in a page: the entry and its value names. */
function importsOf(text: string): { entry: string; names: string[] }[] {
  const found: { entry: string; names: string[] }[] = [];
  for (const match of text.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'(planmode[^']*)'/gm)) {
    const names = match[1]!
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/)[0]!);
    found.push({ entry: match[2]!, names });
  }
  return found;
}

describe('imports shown in README.md and docs/', () => {
  for (const page of PAGES) {
    const imports = importsOf(readFileSync(join(ROOT, page), 'utf8'));
    if (imports.length === 0) continue;
    it(`${page}: every imported name is exported by its entry point`, async () => {
      const missing: string[] = [];
      for (const { entry, names } of imports) {
        const load = ENTRIES[entry];
        if (!load) {
          missing.push(`${entry} is not an entry point`);
          continue;
        }
        const exports = await load();
        for (const name of names) if (!(name in exports)) missing.push(`${name} from '${entry}'`);
      }
      expect(missing).toEqual([]);
    });
  }
});
