/**
 * docs/plan-language.md stays true: every diagnostic code has a table row and a section with an
 * example, it documents no code that does not exist, and each example's output is what
 * `plan validate` prints for the fixture it shows today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, DIAGNOSTIC_CODES, loadToolsFile, SIMULATION_CODES } from '../../src/index.js';

const page = readFileSync(new URL('../../docs/plan-language.md', import.meta.url), 'utf8');
const invalid = new URL('../../fixtures/invalid/', import.meta.url);
const ALL_CODES: readonly string[] = [...DIAGNOSTIC_CODES, ...SIMULATION_CODES];

/** The codes the page's table rows start with: "| `E_JSON` | ...". */
function tableCodes(): string[] {
  return page
    .split('\n')
    .map((line) => /^\| `([EW]_[A-Z_]+)` \|/.exec(line)?.[1])
    .filter((code): code is string => code !== undefined);
}

/** The codes of "### CODE" headings. */
function headingCodes(): string[] {
  return page
    .split('\n')
    .map((line) => /^### ([EW]_[A-Z_]+)$/.exec(line)?.[1])
    .filter((code): code is string => code !== undefined);
}

interface Expected {
  tools?: string;
  input?: string;
  limits?: Record<string, number>;
}

describe('docs/plan-language.md', () => {
  it('has a table row for every diagnostic code, and no row for a code that does not exist', () => {
    expect(new Set(tableCodes())).toEqual(new Set(ALL_CODES));
  });

  it('has a section with an example for every diagnostic code, and none for a code that does not exist', () => {
    const headings = headingCodes();
    expect(new Set(headings)).toEqual(new Set(ALL_CODES));
    for (const code of headings) {
      const section = page.split(`\n### ${code}\n`)[1]!.split('\n### ')[0]!;
      expect(section, `the ${code} section shows no output`).toContain(` ${code}: `);
    }
  });

  it("shows each fixture's diagnostics exactly as plan validate prints them", async () => {
    const expected = JSON.parse(readFileSync(new URL('expected.json', invalid), 'utf8')) as Record<
      string,
      Expected
    >;
    for (const [file, spec] of Object.entries(expected)) {
      const text = readFileSync(new URL(file, invalid), 'utf8');
      const tools = spec.tools ? await loadToolsFile(new URL(spec.tools, invalid).pathname) : undefined;
      const input = spec.input
        ? (JSON.parse(readFileSync(new URL(spec.input, invalid), 'utf8')) as Record<string, unknown>)
        : undefined;
      const { diagnostics } = compile(text, { source: file, tools, input, limits: spec.limits });
      expect(diagnostics.length, file).toBeGreaterThan(0);
      for (const d of diagnostics) {
        const line = `${file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}\n`;
        expect(page.includes(line), `the page does not show: ${line}`).toBe(true);
        if (d.hint)
          expect(page.includes(`  hint: ${d.hint}\n`), `the page lacks the hint of ${line}`).toBe(true);
      }
    }
  });
});
