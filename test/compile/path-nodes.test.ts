/**
 * The data flow numbers each state path by the string number of its canonical text, so one
 * path written several ways must be one node, and overlapping paths must still order every
 * pair of calls that conflict. These cases check the canonical text, and, on random plans over
 * a few overlapping paths spelled at random, that every conflict is ordered, that every edge
 * is a conflict, and that the spelling changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { canonicalText, MAX_CANONICAL_LENGTH } from '../../src/compile/storage/path-nodes.js';
import { createStringParser } from '../../src/language/reference.js';
import type { CompiledPlan } from '../../src/compile/index.js';

describe('canonicalText', () => {
  it('writes each key in the one form the grammar reads back as that key', () => {
    expect(canonicalText([])).toBe('†state');
    expect(canonicalText(['user', 'first-name', '$x', '_y'])).toBe('†state.user.first-name.$x._y');
    expect(canonicalText(['items', 0, 'name'])).toBe('†state.items[0].name');
    // Index 0 and key "0" name one property: one text.
    expect(canonicalText(['items', '0'])).toBe(canonicalText(['items', 0]));
    expect(canonicalText(['a', '12'])).toBe('†state.a[12]');
    // Not an index as JSON writes one: quoted.
    expect(canonicalText(['a', '01'])).toBe('†state.a["01"]');
    expect(canonicalText(['a', '1234567890123456'])).toBe('†state.a["1234567890123456"]');
    expect(canonicalText(['a b', '', 'say "hi"', '9lives'])).toBe(
      '†state["a b"][""]["say \\"hi\\""]["9lives"]',
    );
    expect(canonicalText(['a', 'b', 'c'], 2)).toBe('†state.a.b');
  });

  it('is short enough, in the property test below, for some paths and too long for others', () => {
    const long = 'a_key_of_thirty_characters_now';
    expect(canonicalText([long]).length).toBeLessThanOrEqual(MAX_CANONICAL_LENGTH);
    expect(canonicalText([long, long, 'a']).length).toBeGreaterThan(MAX_CANONICAL_LENGTH);
  });

  it('is read back by the reference parser as the same keys', () => {
    const parser = createStringParser();
    for (const segments of [['items', 0, 'name'], ['a b', '', 'x"y'], ['a', '01', '9'], []]) {
      const parsed = parser.parseString(canonicalText(segments));
      expect(parsed.kind).toBe('expression');
      if (parsed.kind !== 'expression') continue;
      expect(parsed.expression.refs[0]!.segments.map(String)).toEqual(segments.map(String));
    }
  });
});

describe('the string parser', () => {
  it('numbers a string without parsing it, and parses it when first asked', () => {
    const parser = createStringParser();
    const n = parser.numberOnly('†state.a');
    expect(parser.numberOf('†state.a')).toBe(n);
    expect(parser.parsed(n).kind).toBe('expression');
    const bad = parser.numberOnly('†nope');
    expect(parser.parsed(bad).kind).toBe('error');
    expect(parser.numberOnly('†nope')).toBe(bad);
  });
});

/**
 * Keys that overlap in every way the trie knows (a prefix, the same key as index and name),
 * and a long one, so that some paths' canonical text is past MAX_CANONICAL_LENGTH.
 */
const KEYS = ['a', 'b', '0', 'x y', 'a_key_of_thirty_characters_now'];

/** The ways a key can be written in a reference. */
function spellings(key: string): string[] {
  const out = [`[${JSON.stringify(key)}]`];
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) out.push(`.${key}`);
  if (/^\d+$/.test(key)) out.push(`[${key}]`, `.${key}`);
  return out;
}

function spell(keys: readonly string[], choice: number): string {
  let text = '†state';
  for (const key of keys) {
    const forms = spellings(key);
    text += forms[choice % forms.length]!;
    choice = Math.floor(choice / forms.length) + 1;
  }
  return text;
}

interface RandomCall {
  write: readonly string[] | null;
  reads: (readonly string[])[];
}

const path = fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 });
const randomCalls = fc.array(
  fc.record({
    write: fc.option(path, { nil: null }),
    reads: fc.array(path, { maxLength: 2 }),
  }),
  { minLength: 1, maxLength: 12 },
);

function planText(calls: readonly RandomCall[], choice: (k: number) => number): string {
  let k = 0;
  return JSON.stringify(
    calls.map((call) => {
      const raw: Record<string, string> = { _tool: 't' };
      call.reads.forEach((read, r) => (raw[`r${r}`] = spell(read, choice(k++))));
      if (call.write) raw._outputPath = spell(call.write, choice(k++));
      return raw;
    }),
  );
}

function fullTree(depth: number): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const key of KEYS) tree[key] = depth === 1 ? 1 : fullTree(depth - 1);
  return tree;
}

function overlap(a: readonly string[], b: readonly string[]): boolean {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return false;
  return true;
}

/** True when calls j < i must run in that order: one writes a path the other reads or writes. */
function conflict(calls: readonly RandomCall[], j: number, i: number): boolean {
  const [a, b] = [calls[j]!, calls[i]!];
  if (a.write && b.write && overlap(a.write, b.write)) return true;
  if (a.write && b.reads.some((r) => overlap(r, a.write!))) return true;
  return b.write !== null && a.reads.some((r) => overlap(r, b.write!));
}

function reachable(plan: CompiledPlan): boolean[][] {
  const n = plan.calls.length;
  const reach = plan.calls.map(() => new Array<boolean>(n).fill(false));
  // Calls are in array order here (no forward references among conflicts that are ordered).
  for (const i of plan.order) {
    for (const d of plan.calls[i]!.dependencies) {
      reach[d.from]![i] = true;
      for (let k = 0; k < n; k++) if (reach[k]![d.from]) reach[k]![i] = true;
    }
  }
  return reach;
}

function edges(plan: CompiledPlan): string[] {
  return plan.calls.flatMap((call, i) => call.dependencies.map((d) => `${d.from}->${i} ${d.kind}`));
}

describe('the data flow over numbered paths', () => {
  it('orders every conflicting pair, adds no edge without a conflict, and ignores spelling', () => {
    // Every path is in the initial state, so no read waits for a later writer.
    const initial = { state: fullTree(3) };
    fc.assert(
      fc.property(randomCalls, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (calls, choices) => {
        const canonical = compile(
          planText(calls, () => 0),
          initial,
        );
        const spelled = compile(
          planText(calls, (k) => choices[k % choices.length]!),
          initial,
        );
        expect(canonical.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const plan = canonical.plan!;
        expect(edges(spelled.plan!)).toEqual(edges(plan));
        expect(spelled.diagnostics.map((d) => d.code)).toEqual(canonical.diagnostics.map((d) => d.code));
        const reach = reachable(plan);
        for (let i = 0; i < calls.length; i++) {
          for (let j = 0; j < i; j++) if (conflict(calls, j, i)) expect(reach[j]![i]).toBe(true);
          for (const d of plan.calls[i]!.dependencies) expect(conflict(calls, d.from, i)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('binds a path written one way to a read of it written another', () => {
    const result = compile(
      JSON.stringify([
        { _tool: 't', _outputPath: '†state.items[0]' },
        { _tool: 't', a: '†state.items.0', b: '†state["items"]["0"]' },
        { _tool: 't', _outputPath: '†state["items"]' },
        { _tool: 't', c: '†state.items[0].name' },
      ]),
    );
    const calls = result.plan!.calls;
    expect(calls[1]!.reads.map((r) => [r.kind, r.writers])).toEqual([
      ['earlier', [0]],
      ['earlier', [0]],
    ]);
    // The write of the array supersedes its element: ordered after the element's writer and readers.
    expect(calls[2]!.dependencies.map((d) => [d.from, d.kind])).toEqual([
      [0, 'order'],
      [1, 'order'],
    ]);
    expect(calls[3]!.reads[0]!.writers).toEqual([2]);
  });

  it('binds paths longer than a canonical name the same way', () => {
    const deep = (spelling: (key: string) => string) =>
      '†state' + Array.from({ length: 12 }, (_, k) => spelling(`key${k}`)).join('');
    const result = compile(
      JSON.stringify([
        { _tool: 't', _outputPath: deep((k) => `.${k}`) },
        { _tool: 't', a: deep((k) => `["${k}"]`), b: '†state.key0.key1' },
        { _tool: 't', _outputPath: '†state.key0' },
        { _tool: 't', c: deep((k) => `.${k}`) + '.more' },
      ]),
    );
    expect(deep((k) => `.${k}`).length).toBeGreaterThan(MAX_CANONICAL_LENGTH);
    const calls = result.plan!.calls;
    expect(calls[1]!.reads.map((r) => r.writers)).toEqual([[0], [0]]);
    // Its reader first: the read of key0.key1 is above the deep write in the dropped subtree.
    expect(calls[2]!.dependencies.map((d) => d.from)).toEqual([1, 0]);
    expect(calls[3]!.reads[0]!.writers).toEqual([2]);
  });
});
