/**
 * compile's type flow and simulate's argument checks agree on random typed plans: when compile
 * reports no type problem, no scenario of the dry run meets one; when compile says a reference
 * can never fit (E_REF_TYPE), some scenario of the dry run meets it at that argument.
 *
 * The types are ones the check decides exactly (no `integer` against `number`, no
 * `minLength`…), where "may match" cannot hide a failure the dry run would sample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { simulate } from '../../src/simulate/index.js';
import type { Tool } from '../../src/tools/tool.js';

const TYPES = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
  list: { type: 'array', items: { type: 'string' } },
  named: {
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  },
} as const;
type TypeName = keyof typeof TYPES;
const NAMES = Object.keys(TYPES) as TypeName[];
const VALUES: Record<TypeName, unknown> = {
  string: 'text',
  number: 1.5,
  boolean: true,
  null: null,
  list: ['a'],
  named: { name: 'n' },
};

// A parameter of type `named` does not require `name`: the error object, which has no name,
// may arrive there and fits; requiring it would be "may match" (an open object may hold it).
function parameter(t: TypeName) {
  return t === 'named' ? { type: 'object', properties: { name: { type: 'string' } } } : TYPES[t];
}

const TOOLS: Tool[] = NAMES.flatMap((t): Tool[] => [
  { name: `make_${t}`, inputSchema: { type: 'object' }, outputSchema: TYPES[t] },
  {
    name: `take_${t}`,
    inputSchema: { type: 'object', properties: { v: parameter(t) }, required: ['v'] },
  },
]);

interface Writer {
  readonly type: TypeName;
  /** Two alternatives: the value, or the error object of a throw. */
  readonly branches: boolean;
}

interface Read {
  readonly writer: number;
  /** The value, the error alternative, or a part inside the value. */
  readonly where: 'value' | 'error' | 'part' | 'input';
}

interface Reader {
  readonly type: TypeName;
  readonly reads: readonly Read[];
}

const writer: fc.Arbitrary<Writer> = fc.record({ type: fc.constantFrom(...NAMES), branches: fc.boolean() });
const read: fc.Arbitrary<Read> = fc.record({
  writer: fc.nat(),
  where: fc.constantFrom('value', 'value', 'error', 'part', 'input'),
});
const reader: fc.Arbitrary<Reader> = fc.record({
  type: fc.constantFrom(...NAMES),
  reads: fc.array(read, { minLength: 1, maxLength: 2 }),
});
const scenario = fc.record({
  writers: fc.array(writer, { minLength: 1, maxLength: 4 }),
  readers: fc.array(reader, { minLength: 1, maxLength: 4 }),
  input: fc.constantFrom(...NAMES),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function referenceFor(r: Read, writers: readonly Writer[]): string {
  if (r.where === 'input') return '†input.x';
  const k = r.writer % writers.length;
  const w = writers[k]!;
  if (r.where === 'error') return w.branches ? `†state.e${k}` : `†state.s${k}`;
  if (r.where === 'part' && w.type === 'list') return `†state.s${k}[0]`;
  if (r.where === 'part' && w.type === 'named') return `†state.s${k}.name`;
  return `†state.s${k}`;
}

function buildPlan(s: Scenario) {
  const calls: Record<string, unknown>[] = s.writers.map((w, k) => ({
    _tool: `make_${w.type}`,
    _outputPath: w.branches ? `†state.s${k} || †state.e${k}` : `†state.s${k}`,
  }));
  for (const r of s.readers) {
    const refs = [...new Set(r.reads.map((x) => referenceFor(x, s.writers)))];
    calls.push({ _tool: `take_${r.type}`, v: refs.join(' || ') });
  }
  return calls;
}

describe('type flow agrees with the dry run', () => {
  it('no E_REF_TYPE/W_REF_TYPE => no E_SIM_ARGS; E_REF_TYPE => E_SIM_ARGS at that argument', () => {
    let errors = 0;
    let clean = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        const plan = buildPlan(s);
        const input = { x: VALUES[s.input] };
        const typed = compile(plan, { tools: TOOLS, input });
        const typeProblems = typed.diagnostics.filter(
          (d) => d.code === 'E_REF_TYPE' || d.code === 'W_REF_TYPE',
        );
        // Every other diagnostic is absent: the plans are valid but for types.
        expect(typed.diagnostics.filter((d) => !typeProblems.includes(d) && d.severity === 'error')).toEqual(
          [],
        );
        const untyped = compile(plan, { tools: TOOLS, input, checkTypes: false });
        expect(untyped.ok).toBe(true);
        const simulation = simulate(untyped.plan!, { tools: TOOLS, input, maxScenarios: 64 });
        expect(simulation.truncated ?? false).toBe(false);
        const failing = new Set(
          simulation.scenarios.flatMap((sc) => sc.argumentErrors.map((e) => e.pointer)),
        );
        if (typeProblems.length === 0) {
          clean++;
          expect([...failing]).toEqual([]);
        }
        for (const d of typeProblems) {
          if (d.code !== 'E_REF_TYPE') continue;
          errors++;
          expect(failing.has(d.pointer), `${d.pointer}: ${d.message}`).toBe(true);
        }
      }),
      { numRuns: 100, seed: 13 },
    );
    // Both sides of the property were exercised.
    expect(errors).toBeGreaterThan(0);
    expect(clean).toBeGreaterThan(0);
  });
});
