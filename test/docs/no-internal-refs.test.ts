/**
 * What the package ships (bin/, src/ and its .d.ts JSDoc, schemas/) and what a user reads next to
 * it (fixtures/, examples/) cites no internal document: comments and strings say what they mean
 * in the project's own words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { internalRefs } from './internal-refs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['bin', 'src', 'schemas', 'fixtures', 'examples'];
const TEXT_FILE = /\.(ts|mts|js|mjs|json|md)$/;

/** The text files of a folder, recursively, as paths relative to the repository. */
function textFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => TEXT_FILE.test(name))
    .map((name) => join(folder, name))
    .sort();
}

describe('no internal references', () => {
  it('names the file, line and word of a citation', () => {
    const text = 'const a = 1;\n/** The dry run of SPEC 10, as seeds/004 says. */\n';
    expect(internalRefs('src/x.ts', text)).toEqual([
      'src/x.ts:2: SPEC: /** The dry run of SPEC 10, as seeds/004 says. */',
      'src/x.ts:2: seeds/NNN: /** The dry run of SPEC 10, as seeds/004 says. */',
    ]);
    expect(internalRefs('src/x.ts', 'const CLASS_SPECIAL = "[]^-"; // a random seed\n')).toEqual([]);
  });

  for (const folder of FOLDERS) {
    it(`${folder}/ cites no internal document`, () => {
      const files = textFiles(folder);
      expect(files.length).toBeGreaterThan(0);
      const found = files.flatMap((file) => internalRefs(file, readFileSync(join(ROOT, file), 'utf8')));
      expect(found).toEqual([]);
    });
  }
});
