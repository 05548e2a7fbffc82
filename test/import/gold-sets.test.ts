/**
 * The gold sets of test/corpora compile and run: every imported plan validates with no error or
 * is listed in test/corpora/defects.json with exactly the errors it has, each of which the raw
 * data really has; every valid plan dry-runs with every call run; and the compiled dependency
 * levels are the ones the data's own references imply.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate/index.js';
import { goldSets, rawCalls } from './gold/corpora.js';
import { type ListedDefect, rawDefect } from './gold/raw-checks.js';
import { levelsOf, rawDependencies, widest } from './gold/raw-levels.js';

const defects = (
  JSON.parse(readFileSync(new URL('../corpora/defects.json', import.meta.url), 'utf8')) as {
    defects: Record<string, Record<string, ListedDefect[]>>;
  }
).defects;

const sets = goldSets();

/** The import warnings per code of each data file: a reader change that adds or drops one shows. */
const WARNINGS: Record<string, Record<string, number>> = {
  'nestful/executable-data.json': {
    W_IMPORT_EMBEDDED_REFERENCE: 7,
    W_IMPORT_MALFORMED_REFERENCE: 1,
    W_IMPORT_TYPE: 16,
  },
  'nestful/non-executable-glaive-data.json': {
    W_IMPORT_EMBEDDED_REFERENCE: 5,
    W_IMPORT_TYPE: 5,
    W_IMPORT_UNKNOWN_REFERENCE: 4,
  },
  'nestful/non-executable-sgd-data.json': { W_IMPORT_UNKNOWN_REFERENCE: 2 },
  'nestools/test_data.part1.jsonl': {},
};

function errorsOf(compiled: (typeof sets)[number]['samples'][number]['compiled']) {
  return compiled.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code, call: d.call, pointer: d.pointer }));
}

describe.each(sets.map((set) => [set.file, set] as const))('gold set %s', (file, set) => {
  const listed = defects[file] ?? {};

  it('imports every row, with the import warnings it has always had', () => {
    expect(set.result.errors).toEqual([]);
    const counts: Record<string, number> = {};
    for (const s of set.samples)
      for (const w of s.sample.warnings) counts[w.code] = (counts[w.code] ?? 0) + 1;
    expect(counts).toEqual(WARNINGS[file]);
  });

  it('compiles every sample not listed in defects.json with no error', () => {
    const failing = set.samples
      .filter((s) => !Object.hasOwn(listed, s.sample.id))
      .filter((s) => errorsOf(s.compiled).length > 0)
      .map((s) => ({ id: s.sample.id, errors: errorsOf(s.compiled) }));
    expect(failing).toEqual([]);
  });

  it('gives each listed sample exactly the errors defects.json lists', () => {
    const ids = new Set(set.samples.map((s) => s.sample.id));
    for (const id of Object.keys(listed)) expect(ids.has(id), `${id} is no sample of ${file}`).toBe(true);
    for (const s of set.samples.filter((x) => Object.hasOwn(listed, x.sample.id))) {
      const want = listed[s.sample.id]!.map(({ code, call, pointer }) => ({ code, call, pointer }));
      expect(errorsOf(s.compiled), s.sample.id).toEqual(want);
    }
  });

  it('lists only defects the raw data has, each with a reason', () => {
    for (const s of set.samples.filter((x) => Object.hasOwn(listed, x.sample.id))) {
      for (const defect of listed[s.sample.id]!) {
        expect(defect.reason.length, `${s.sample.id} ${defect.pointer}`).toBeGreaterThan(20);
        const wrong = rawDefect(defect, { calls: rawCalls(set, s.raw), spec: set.spec });
        expect(wrong, `${s.sample.id} ${defect.kind} at ${defect.pointer}`).toBeNull();
      }
    }
  });

  it('dry-runs every valid plan with every call run', () => {
    for (const s of set.samples) {
      if (!s.compiled.ok) continue;
      const simulation = simulate(s.compiled.plan, { tools: s.registry });
      const ran = new Set(simulation.scenarios.flatMap((scenario) => scenario.run));
      const never = s.compiled.plan!.calls.filter((c) => !ran.has(c.id)).map((c) => c.id);
      expect(never, `${file} ${s.sample.id}`).toEqual([]);
    }
  });

  it('compiles to the dependency levels the raw references imply', () => {
    for (const s of set.samples) {
      if (!s.compiled.ok) continue;
      const plan = s.compiled.plan!;
      // 1 + the highest level among the calls depended on, in the compiled order.
      const compiled = new Array<number>(plan.calls.length).fill(0);
      for (const i of plan.order) {
        for (const d of plan.calls[i]!.dependencies)
          compiled[i] = Math.max(compiled[i]!, compiled[d.from]! + 1);
      }
      const implied = levelsOf(rawDependencies(set.format as 'nestful' | 'nestools', rawCalls(set, s.raw)));
      expect(compiled, s.sample.id).toEqual(implied);
      expect(plan.levels, s.sample.id).toEqual(implied);
    }
  });
});

describe('the gold sets', () => {
  it('list in defects.json only the four data files', () => {
    expect(Object.keys(defects).every((f) => sets.some((s) => s.file === f))).toBe(true);
  });

  it('have the parallelism docs/evaluation.md reports', () => {
    const page = readFileSync(new URL('../../docs/evaluation.md', import.meta.url), 'utf8');
    const missing: string[] = [];
    for (const set of sets) {
      const valid = set.samples.filter((s) => s.compiled.ok);
      const widths = valid.map((s) => widest(s.compiled.plan!.levels));
      const histogram = new Map<number, number>();
      for (const w of widths) histogram.set(w, (histogram.get(w) ?? 0) + 1);
      const cells = [...histogram.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([w, n]) => `${w}: ${n}`)
        .join(', ');
      const row = `| \`${set.file}\` | ${set.samples.length} | ${valid.length} | ${Math.max(...widths)} | ${cells} |`;
      if (!page.includes(row)) missing.push(row);
    }
    expect(missing).toEqual([]);
  });
});
