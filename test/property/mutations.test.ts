/**
 * Property: whatever is done to a valid plan, byte by byte or structurally, compile and
 * parsePlan only ever answer with diagnostics (well-formed ones), never with an exception.
 */
import type { PlanInput } from '../../src/language/document.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompileResult, compile, parsePlan, type Tool, ToolRegistry } from '../../src/index.js';
import { expectWellFormed } from '../compile/helpers.js';
import { buildPlan, INITIAL_STATE, planChoices } from './plans.js';

const TOOLS: Tool[] = [
  { name: 'tool0', inputSchema: { type: 'object', properties: { arg0: { type: 'string' } } } },
  {
    name: 'tool1',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { arg0: { type: 'array', prefixItems: [{ type: 'integer' }] }, later: { enum: ['x'] } },
      additionalProperties: { type: ['string', 'object'] },
    },
  },
  { name: 'tool2', latent: true },
  { name: 'source', inputSchema: { type: 'object', additionalProperties: false } },
  // A recursive schema: arguments are validated as deep as they go.
  { name: 'tree', inputSchema: { type: ['object', 'string'], additionalProperties: { $ref: '#' } } },
];
// Compiled once: ajv's schema compilation would dominate the run time.
const REGISTRY = new ToolRegistry(TOOLS);

const STATE_SCHEMA = {
  type: 'object',
  properties: { a: {}, b: { type: 'object', properties: { x: {} }, additionalProperties: false }, init: {} },
  additionalProperties: { $ref: '#/properties/b' },
};

/** Seeds besides the random plans: every document shape and a few features. */
const SEEDS: string[] = [
  JSON.stringify(
    { type: 'plan', mode: 'lazy', plan: [{ _tool: 'tool2', _outputPath: '†state.a || †state.b' }] },
    null,
    2,
  ),
  JSON.stringify({ calls: [{ _tool: 'tool0', arg0: '††literal', _outputPath: '†state.a' }], output: null }),
  JSON.stringify(
    [
      { type: 'input', q: 'question', list: [1, 2] },
      { type: 'state', schema: STATE_SCHEMA, init: { k: 1 } },
      {
        type: 'plan',
        plan: [
          { _tool: 'tool0', _id: 'first', arg0: '†input.q', _outputPath: '†state.a' },
          {
            _tool: 'tool1',
            arg0: ['†state.a', '†input.list[*]'],
            later: '†state.b.x',
            _outputPath: '†state.c',
          },
          { _tool: 'tool2', _output: 'x', _outputPath: '†state.b.x' },
        ],
      },
    ],
    null,
    2,
  ),
  '[{"_tool": "tree", "a": {"b": {"c": "†state.[\\u2020"}}, "_outputPath": "†state.a && †state.b"}]',
];

const PALETTE = [
  ...'{}[]":,\\ \n\t0123456789.-eE+*|&_$abcxyz',
  '†',
  '††',
  '"†state.',
  '\u0000',
  '\ud800',
  '😀',
  'null',
  '\ufeff',
];

const byteEdit = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace'),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 4 }),
  text: fc.oneof(
    fc.constantFrom(...PALETTE),
    fc.string({ maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 3 }),
  ),
});

type ByteEdit = typeof byteEdit extends fc.Arbitrary<infer T> ? T : never;

function applyByteEdits(text: string, edits: readonly ByteEdit[]): string {
  let out = text;
  for (const e of edits) {
    const at = out.length === 0 ? 0 : e.at % (out.length + 1);
    if (e.kind === 'insert') out = out.slice(0, at) + e.text + out.slice(at);
    else if (e.kind === 'delete') out = out.slice(0, at) + out.slice(at + e.length);
    else out = out.slice(0, at) + e.text + out.slice(at + e.length);
  }
  return out;
}

const daggerString = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => `†${s}`),
  fc.constantFrom(
    '†',
    '††',
    '†state',
    '†input',
    '†state.',
    '†state[*]',
    '†state.a ||',
    '†state.__proto__',
    '†state.a && †state.b || †state.c',
  ),
  fc
    .array(fc.constantFrom('.a', '[0]', '["k"]', '[*]', ' || †state', ' && †input', '.0', '[', ']', '"'), {
      maxLength: 6,
    })
    .map((parts) => `†state${parts.join('')}`),
);

const randomValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  daggerString,
  fc.constant([]),
  fc.constant({}),
  fc.constantFrom(
    '_tool',
    '_id',
    '_output',
    '_outputPath',
    'type',
    'plan',
    'calls',
    'schema',
    'lazy',
    'eager',
  ),
  fc.dictionary(fc.constantFrom('_tool', '_id', '_outputPath', '_x', 'type', 'plan', 'a'), daggerString, {
    maxKeys: 3,
  }),
);

const structuralEdit = fc.record({
  kind: fc.constantFrom(
    'deleteKey',
    'setValue',
    'swap',
    'dagger',
    'duplicateCall',
    'addKey',
    'wrap',
    'unwrap',
  ),
  target: fc.nat(),
  other: fc.nat(),
  key: fc.constantFrom(
    '_tool',
    '_id',
    '_output',
    '_outputPath',
    '_outputpath',
    'type',
    'mode',
    'plan',
    'calls',
    'schema',
    'x',
    '__proto__',
  ),
  value: randomValue,
});

type StructuralEdit = typeof structuralEdit extends fc.Arbitrary<infer T> ? T : never;

interface Slot {
  readonly parent: Record<string, unknown> | unknown[] | null;
  readonly key: string | number;
  readonly value: unknown;
}

/** Every value in the tree with where it sits, the root first (iteratively). */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: '', value: root }];
  for (let i = 0; i < out.length; i++) {
    const v = out[i]!.value;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) out.push({ parent: v, key: k, value: v[k] });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v))
        out.push({ parent: v as Record<string, unknown>, key: k, value: item });
    }
  }
  return out;
}

function set(slot: Slot, value: unknown): void {
  if (slot.parent === null) return;
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  // defineProperty: a "__proto__" key stays an own property, as JSON.parse makes it.
  else
    Object.defineProperty(slot.parent, slot.key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

function applyStructuralEdits(root: unknown, edits: readonly StructuralEdit[]): unknown {
  let doc = root;
  for (const e of edits) {
    const all = slots(doc);
    const slot = all[e.target % all.length]!;
    const other = all[e.other % all.length]!;
    switch (e.kind) {
      case 'deleteKey':
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else if (slot.parent) delete slot.parent[slot.key as string];
        break;
      case 'setValue': {
        // A copy: fc.constant({}) hands out one shared object, which an 'addKey' could then put
        // inside itself (a cycle, and an endless walk), and edits would leak between runs.
        const value = structuredClone(e.value);
        if (slot.parent === null) doc = value;
        else set(slot, value);
        break;
      }
      case 'swap':
        // Swapping a value with one inside it would make a cycle; copy the other one instead.
        if (slot.parent && other.parent) {
          const a = structuredClone(slot.value);
          set(slot, structuredClone(other.value));
          set(other, a);
        }
        break;
      case 'dagger':
        set(
          slot,
          typeof e.value === 'string' && e.value.startsWith('†') ? e.value : `†${JSON.stringify(e.value)}`,
        );
        break;
      case 'duplicateCall': {
        const calls = Array.isArray(doc) ? doc : all.find((s) => Array.isArray(s.value))?.value;
        if (Array.isArray(calls) && calls.length > 0)
          calls.splice(e.other % (calls.length + 1), 0, structuredClone(calls[e.target % calls.length]));
        break;
      }
      case 'addKey':
        if (slot.value !== null && typeof slot.value === 'object' && !Array.isArray(slot.value)) {
          Object.defineProperty(slot.value, e.key, {
            value: structuredClone(e.value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        break;
      case 'wrap':
        if (slot.parent === null) doc = [doc];
        else set(slot, [slot.value]);
        break;
      case 'unwrap':
        if (Array.isArray(slot.value) && slot.value.length > 0) {
          if (slot.parent === null) doc = slot.value[0];
          else set(slot, slot.value[0]);
        }
        break;
    }
  }
  return doc;
}

function expectOnlyDiagnostics(result: CompileResult, text: string | undefined): void {
  expectWellFormed(result.diagnostics, text);
  const hasError = result.diagnostics.some((d) => d.severity === 'error');
  expect(result.ok).toBe(!hasError);
  if (result.ok) {
    const plan = result.plan!;
    expect([...plan.order].sort((a, b) => a - b)).toEqual([...plan.calls.keys()]);
    for (const c of plan.calls)
      for (const d of c.dependencies) expect(plan.levels[c.index]!).toBeGreaterThan(plan.levels[d.from]!);
  } else {
    expect(result.plan).toBeUndefined();
  }
}

/** Compiles a mutated text in every configuration; any exception fails the property. */
function checkText(text: string): void {
  expectWellFormed(parsePlan(text).diagnostics, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const positioned = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  expectOnlyDiagnostics(compile(text), positioned);
  expectOnlyDiagnostics(
    compile(text, { tools: REGISTRY, state: INITIAL_STATE, input: { q: 1 } }),
    positioned,
  );
  expectOnlyDiagnostics(
    compile(text, { tools: REGISTRY, mode: 'lazy', limits: { maxDepth: 3, maxCalls: 20 } }),
    positioned,
  );
}

function checkValue(value: unknown): void {
  expectWellFormed(parsePlan(value).diagnostics);
  expectOnlyDiagnostics(compile(value as PlanInput), undefined);
  expectOnlyDiagnostics(
    compile(value as PlanInput, { tools: REGISTRY, state: INITIAL_STATE, input: { q: 1 } }),
    undefined,
  );
}

const baseText = fc.oneof(
  planChoices(8).map((choices) => JSON.stringify(buildPlan(choices).calls, null, 2)),
  fc.constantFrom(...SEEDS),
);

describe('mutations of valid plans', () => {
  it('byte-level edits (insert, delete, replace) only ever give diagnostics', () => {
    fc.assert(
      fc.property(baseText, fc.array(byteEdit, { minLength: 1, maxLength: 6 }), (text, edits) => {
        checkText(applyByteEdits(text, edits));
      }),
      { numRuns: 400 },
    );
  });

  it('structural edits (delete keys, change types, swap values, † strings, duplicate calls) only ever give diagnostics', () => {
    fc.assert(
      fc.property(baseText, fc.array(structuralEdit, { minLength: 1, maxLength: 6 }), (text, edits) => {
        const value = applyStructuralEdits(JSON.parse(text), edits);
        checkValue(value);
        checkText(JSON.stringify(value, null, 2));
      }),
      { numRuns: 400 },
    );
  });

  it('the seeds themselves compile', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const result = compile(seed, { tools: REGISTRY });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
    // The last seed holds a broken reference on purpose.
    expect(compile(SEEDS[3]!, { tools: REGISTRY }).diagnostics.map((d) => d.code)).toEqual(['E_REF_SYNTAX']);
  });
});
