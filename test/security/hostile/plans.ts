/**
 * Hostile plan documents, made the way an attacker (or a broken model) would: deep, wide, huge,
 * truncated, mistyped, with references that probe the grammar and the limits. Each case says
 * what compile must answer: valid, invalid (with a code it must include), or either (random
 * edits), and the limits it runs under. Deterministic: the random parts come from a seed.
 */
import { seededRandom } from '../../../bench/plans.js';
import type { Limits } from '../../../src/index.js';
import { hashOf } from '../../../src/language/string-table.js';

export interface PlanCase {
  readonly name: string;
  readonly text: string;
  /** `valid`: compiles; `invalid`: does not, with `code` among its diagnostics; `any`: either. */
  readonly expect: 'valid' | 'invalid' | 'any';
  readonly code?: string;
  readonly limits?: Partial<Limits>;
}

/** The tools every hostile plan may call: `t` takes anything, `typed` has a schema. */
export const CORPUS_TOOLS = [
  { name: 't' },
  {
    name: 'typed',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' },
        n: { type: 'integer', maximum: 10 },
      },
      additionalProperties: false,
    },
  },
  { name: 'think', latent: true },
];

/** The same seed, the same corpus. */
const random = seededRandom;

const call = (extra: Record<string, unknown>) => ({ _tool: 't', ...extra });
const plan = (calls: unknown[]) => JSON.stringify(calls);

function nestedText(depth: number, open = '[', close = ']', inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function nestedObjectText(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Values nested `depth` deep, written into each place a plan can carry a value. */
function depthCases(): PlanCase[] {
  const out: PlanCase[] = [];
  for (const depth of [62, 63, 64, 1_000, 100_000]) {
    // A call (or the input or state object) is level 1, so the value's outermost container is
    // level 2: 63 containers fit the default limit of 64, and so does a state schema's member.
    const fits = depth <= 63;
    const deep = depth % 2 === 0 ? nestedText(depth) : nestedObjectText(depth);
    const verdict = (ok: boolean) => (ok ? 'valid' : 'invalid');
    out.push(
      {
        name: `argument nested ${depth}`,
        text: `[{"_tool":"t","v":${deep}}]`,
        expect: verdict(fits),
        code: 'E_LIMIT',
      },
      {
        name: `_output nested ${depth}`,
        text: `[{"_tool":"think","_output":${deep},"_outputPath":"†state.x"}]`,
        expect: verdict(fits),
        code: 'E_LIMIT',
      },
      {
        name: `input message nested ${depth}`,
        text: `[{"type":"input","q":${deep}},{"type":"plan","plan":[{"_tool":"t","v":"†input.q"}]}]`,
        expect: verdict(fits),
        code: 'E_LIMIT',
      },
      {
        name: `state message nested ${depth}`,
        text: `[{"type":"state","s":${deep}},{"type":"plan","plan":[{"_tool":"t","v":"†state.s"}]}]`,
        expect: verdict(fits),
        code: 'E_LIMIT',
      },
      {
        name: `state schema nested ${depth}`,
        text: `[{"type":"state","schema":{"type":"object","x":${deep}}},{"type":"plan","plan":[{"_tool":"t"}]}]`,
        expect: verdict(fits),
        code: 'E_LIMIT',
      },
      {
        name: `unknown plan-message key nested ${depth}`,
        text: `{"type":"plan","plan":[],"notes":${deep}}`,
        expect: 'invalid',
        code: 'E_SHAPE',
      },
      { name: `bare array nested ${depth}`, text: deep, expect: 'invalid', code: 'E_SHAPE' },
    );
  }
  return out;
}

/** Wide objects and long arrays, and plans that make many diagnostics. */
function widthCases(): PlanCase[] {
  const wide: Record<string, number> = {};
  for (let i = 0; i < 100_000; i++) wide[`k${i}`] = i;
  const underscored: Record<string, unknown> = { _tool: 't' };
  for (let i = 0; i < 100_000; i++) underscored[`_k${i}`] = 1;
  const manyUnknownTools = Array.from({ length: 20_000 }, (_, i) => ({ _tool: `tool${i}` }));
  const manyWarnings = Array.from({ length: 5_000 }, () => ({ _tool: 't', m: 'see †state.x here' }));
  return [
    { name: 'argument object of 100k keys', text: plan([call({ v: wide })]), expect: 'valid' },
    {
      name: 'argument object of 100k keys over maxKeys',
      text: plan([call({ v: wide })]),
      expect: 'invalid',
      code: 'E_LIMIT',
      limits: { maxKeys: 1_000 },
    },
    {
      name: '100k keys against additionalProperties: false',
      text: plan([{ _tool: 'typed', ...wide }]),
      expect: 'invalid',
      code: 'E_ARGS',
    },
    {
      name: 'one call with 100k unknown _ keys',
      text: JSON.stringify([underscored]),
      expect: 'invalid',
      code: 'E_UNKNOWN_META',
    },
    {
      name: '20k calls to unknown tools',
      text: plan(manyUnknownTools),
      expect: 'invalid',
      code: 'E_UNKNOWN_TOOL',
    },
    { name: '5k warnings (capped, still valid)', text: plan(manyWarnings), expect: 'valid' },
    {
      name: 'an array argument of 1M numbers',
      text: plan([call({ v: Array.from({ length: 1_000_000 }, (_, i) => i) })]),
      expect: 'valid',
    },
    {
      name: 'more calls than maxCalls',
      text: plan([call({}), call({}), call({})]),
      expect: 'invalid',
      code: 'E_LIMIT',
      limits: { maxCalls: 2 },
    },
    {
      // Under 3 bytes a character, the file is read and the compiler says E_LIMIT (exit 1).
      name: 'text longer than maxTextLength',
      text: plan([call({ v: 'x'.repeat(2_000) })]),
      expect: 'invalid',
      code: 'E_LIMIT',
      limits: { maxTextLength: 1_000 },
    },
  ];
}

/** Long strings and references that probe the reference grammar's limits. */
function referenceCases(): PlanCase[] {
  const segments = (n: number) => `†state${'.a'.repeat(n)}`;
  const out: PlanCase[] = [
    { name: 'a 1 MB string argument', text: plan([call({ v: 'x'.repeat(1_000_000) })]), expect: 'valid' },
    { name: 'a 1 MB key', text: plan([call({ ['k'.repeat(1_000_000)]: 1 })]), expect: 'valid' },
    {
      name: '100k daggers inside text',
      text: plan([call({ v: 'x †state.a '.repeat(100_000) })]),
      expect: 'valid',
    },
    {
      name: 'a read of 100k segments',
      text: plan([call({ _outputPath: '†state.a' }), call({ v: segments(100_000) })]),
      expect: 'invalid',
      code: 'E_LIMIT',
    },
    {
      name: 'an output path of 65 segments',
      text: plan([call({ _outputPath: segments(65) })]),
      expect: 'invalid',
      code: 'E_LIMIT',
    },
    {
      name: 'an output path of 64 segments',
      text: plan([call({ _outputPath: segments(64) })]),
      expect: 'valid',
    },
    {
      name: 'a || expression of 10k alternatives',
      text: plan([
        call({ _outputPath: Array.from({ length: 10_000 }, (_, i) => `†state.a${i}`).join(' || ') }),
      ]),
      expect: 'valid',
    },
    {
      // Each written, then read by the next call: every lookup in the compiler's table of
      // reference strings would walk the run of those before it, were its walks not bounded.
      name: '1,000 reference strings that collide in the string table',
      text: plan(
        collidingReferences(1_000).map((path, i, all) =>
          call({ _outputPath: path, ...(i > 0 && { v: all[i - 1] }) }),
        ),
      ),
      expect: 'valid',
    },
    {
      // Each path's node is named by its canonical text up to a bound, then by its parent's
      // number and key: 60k distinct nodes of deep paths must not cost the square of their length.
      name: '1,000 distinct paths of 60 segments, each read back',
      text: plan(
        Array.from({ length: 1_000 }, (_, i) =>
          call({
            _outputPath: `†state.k${i}${'.segment'.repeat(59)}`,
            ...(i > 0 && { v: `†state["k${i - 1}"]${'["segment"]'.repeat(59)}` }),
          }),
        ),
      ),
      expect: 'valid',
    },
    {
      // A key holding what a node's name below the canonical bound is made of (its parent's
      // number, a U+0001, its key) names nothing else.
      name: 'keys made like the names of deep nodes',
      text: plan([
        call({ _outputPath: `†state${'.long_segment_name'.repeat(5)}["1\\u00011"]` }),
        call({
          v: `†state${'["long_segment_name"]'.repeat(5)}["1\\u00011"]`,
          _outputPath: '†state["1\\u00011"]',
        }),
        call({ v: '†state["1\\u00011"]' }),
      ]),
      expect: 'valid',
    },
    {
      name: 'a forward-reference self cycle',
      text: plan([call({ v: '†state.a', _outputPath: '†state.a' })]),
      expect: 'any',
    },
    {
      name: 'a 10k-call forward cycle',
      text: plan(
        Array.from({ length: 10_000 }, (_, i) =>
          call({ v: `†state.s${(i + 1) % 10_000}`, _outputPath: `†state.s${i}` }),
        ),
      ),
      expect: 'invalid',
      code: 'E_CYCLE',
    },
  ];
  for (const index of [
    '0',
    '1000000',
    '1000001',
    '99999999',
    '4294967294',
    '4294967295',
    '9007199254740993',
    '1'.repeat(400),
  ]) {
    const fits = index.length <= 7 && Number(index) <= 1_000_000;
    out.push({
      name: `write at index ${index.slice(0, 20)}`,
      text: plan([call({ _outputPath: `†state.a[${index}]` })]),
      expect: fits ? 'valid' : 'invalid',
      code: 'E_LIMIT',
    });
    out.push({
      name: `read at index ${index.slice(0, 20)}`,
      text: plan([call({ _outputPath: '†state.a' }), call({ v: `†state.a[${index}]` })]),
      expect: fits ? 'valid' : 'invalid',
      code: 'E_LIMIT',
    });
  }
  for (const forbidden of ['__proto__', 'constructor', 'prototype']) {
    out.push({
      name: `${forbidden} in an output path`,
      text: plan([call({ _outputPath: `†state.${forbidden}.polluted` })]),
      expect: 'invalid',
      code: 'E_REF_FORBIDDEN',
    });
    // "__proto__" starts with an underscore: as an argument it is an unknown meta key.
    out.push({
      name: `${forbidden} as an argument key and a state key`,
      text: `[{"type":"state","${forbidden}":{"polluted":true}},{"type":"plan","plan":[{"_tool":"t","${forbidden}":{"polluted":true}}]}]`,
      expect: forbidden === '__proto__' ? 'invalid' : 'valid',
      code: 'E_UNKNOWN_META',
    });
  }
  return out;
}

/** Texts that are not plans at all, or barely. */
function shapeCases(): PlanCase[] {
  const texts: [string, string, PlanCase['expect'], string?][] = [
    ['empty text', '', 'invalid', 'E_JSON'],
    ['a lone brace', '{', 'invalid', 'E_JSON'],
    ['nul', 'nul', 'invalid', 'E_JSON'],
    ['a BOM alone', '\ufeff', 'invalid', 'E_JSON'],
    ['NUL bytes', '[\u0000]', 'invalid', 'E_JSON'],
    ['a lone surrogate in a string', '[{"_tool":"t","v":"\ud800"}]', 'valid'],
    ['an escaped lone surrogate', '[{"_tool":"t","v":"\\udc00"}]', 'valid'],
    ['a number', '42', 'invalid', 'E_SHAPE'],
    ['a string', '"plan"', 'invalid', 'E_SHAPE'],
    ['null', 'null', 'invalid', 'E_SHAPE'],
    ['calls that are not objects', '[1, "two", null, [], true]', 'invalid', 'E_SHAPE'],
    ['a context array in a context array', '[[{"type":"plan","plan":[]}]]', 'invalid', 'E_SHAPE'],
    ['two plan messages', '[{"type":"plan","plan":[]},{"type":"plan","plan":[]}]', 'invalid', 'E_SHAPE'],
    [
      'an unknown message type',
      '[{"type":"tools","tools":[]},{"type":"plan","plan":[]}]',
      'invalid',
      'E_SHAPE',
    ],
    ['a lone input message', '{"type":"input","x":1}', 'invalid', 'E_SHAPE'],
    ['a solution whose calls are an object', '{"calls":{"_tool":"t"},"output":null}', 'invalid', 'E_SHAPE'],
    ['duplicate keys', '[{"_tool":"t","_tool":"typed","id":"x"}]', 'invalid', 'E_DUPLICATE_KEY'],
    ['a _tool that is an object', '[{"_tool":{"name":"t"}}]', 'invalid', 'E_NO_TOOL'],
    ['an _id that is a number', '[{"_tool":"t","_id":7}]', 'invalid', 'E_SHAPE'],
    ['duplicate ids', '[{"_tool":"t","_id":"1"},{"_tool":"t"}]', 'invalid', 'E_DUPLICATE_ID'],
    [
      '_output in a lazy plan',
      '{"type":"plan","mode":"lazy","plan":[{"_tool":"think","_output":1}]}',
      'invalid',
      'E_LAZY_OUTPUT',
    ],
    ['a mode that is not one', '{"type":"plan","mode":"eager; rm -rf /","plan":[]}', 'invalid', 'E_SHAPE'],
    ['writing input', '[{"_tool":"t","_outputPath":"†input.x"}]', 'invalid', 'E_OUTPUT_PATH'],
    ['a [*] output path', '[{"_tool":"t","_outputPath":"†state.a[*]"}]', 'invalid', 'E_OUTPUT_PATH'],
    ['mixed operators', '[{"_tool":"t","v":"†state.a || †state.b && †state.c"}]', 'invalid', 'E_MIXED_OPS'],
    ['a schema-breaking literal', '[{"_tool":"typed","id":"Not Valid!","n":99}]', 'invalid', 'E_ARGS'],
    [
      'a literal that backtracks a naive regex',
      `[{"_tool":"typed","id":"${'a'.repeat(60)}!"}]`,
      'invalid',
      'E_ARGS',
    ],
  ];
  return texts.map(([name, text, expect, code]) => ({ name, text, expect, ...(code && { code }) }));
}

/** A rich valid plan cut at many places, as a stream cut off mid-way would leave it. */
function truncationCases(): PlanCase[] {
  const full = JSON.stringify(
    [
      { type: 'input', city: 'Paris', ids: [1, 2, 3] },
      { type: 'state', schema: { type: 'object' }, seen: {} },
      {
        type: 'plan',
        plan: [
          { _id: 'w', _tool: 't', city: '†input.city', _outputPath: '†state.sunny || †state.rainy' },
          { _id: 'p', _tool: 't', day: '†state.sunny', _outputPath: '†state.plan' },
          { _id: 'm', _tool: 't', day: '†state.rainy', _outputPath: '†state.plan' },
          {
            _id: 'x',
            _tool: 'think',
            _output: { note: '††literal' },
            _outputPath: '†state.note && †state.copy',
          },
          { _id: 'all', _tool: 't', ids: '†input.ids[*]', what: '†state.plan', _outputPath: '†state.done' },
        ],
      },
    ],
    null,
    1,
  );
  const out: PlanCase[] = [{ name: 'the whole rich plan', text: full, expect: 'valid' }];
  for (let k = 1; k <= 40; k++) {
    const at = Math.floor((full.length * k) / 41);
    out.push({
      name: `the rich plan cut at ${at}`,
      text: full.slice(0, at),
      expect: 'invalid',
      code: 'E_JSON',
    });
  }
  return out;
}

/** Strings that start with a dagger, from a palette that hits the grammar's corners. */
function grammarCases(seed: number, count: number): PlanCase[] {
  const next = random(seed);
  const parts = [
    '.a',
    '.0',
    '[0]',
    '[*]',
    '["k"]',
    '["\\u2020"]',
    '[',
    ']',
    '"',
    '.',
    '..',
    ' || †state',
    ' && †input',
    '||',
    '&&',
    ' ',
    '.__proto__',
    '[01]',
    '[-1]',
    '†',
    '\\n',
    '😀',
    '.a-b',
    '.$x',
  ];
  const roots = ['†state', '†input', '†', '††state', '†sate', '†State'];
  const out: PlanCase[] = [];
  for (let i = 0; i < count; i++) {
    let text = roots[Math.floor(next() * roots.length)]!;
    const n = Math.floor(next() * 6);
    for (let k = 0; k < n; k++) text += parts[Math.floor(next() * parts.length)]!;
    const asPath = next() < 0.3;
    out.push({
      name: `grammar probe ${i}: ${text}`,
      text: JSON.stringify([
        { _tool: 't', _outputPath: '†state.a' },
        asPath ? { _tool: 't', _outputPath: text } : { _tool: 't', v: text },
      ]),
      expect: 'any',
    });
  }
  return out;
}

/** Random edits of small plans: insertions of structural characters, deletions, swaps. */
function editCases(seed: number, count: number): PlanCase[] {
  const next = random(seed);
  const base = JSON.stringify([
    { _tool: 't', a: '†input.x', _outputPath: '†state.a || †state.err' },
    { _tool: 'typed', id: 'ok_1', n: 3, _outputPath: '†state.b' },
    { _tool: 't', v: ['†state.a', { deep: '†state.b' }] },
  ]);
  const palette = [
    '{',
    '}',
    '[',
    ']',
    '"',
    ':',
    ',',
    '\\',
    '†',
    '††',
    '_',
    'e',
    '-',
    '0',
    '\u0000',
    '\ud800',
    '\u2028',
    ' ',
    'null',
  ];
  const out: PlanCase[] = [];
  for (let i = 0; i < count; i++) {
    let text = base;
    const edits = 1 + Math.floor(next() * 4);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(next() * (text.length + 1));
      const kind = next();
      if (kind < 0.4)
        text = text.slice(0, at) + palette[Math.floor(next() * palette.length)]! + text.slice(at);
      else if (kind < 0.7) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 3));
      else text = text.slice(0, at) + palette[Math.floor(next() * palette.length)]! + text.slice(at + 1);
    }
    out.push({ name: `random edit ${i}`, text, expect: 'any' });
  }
  return out;
}

/** Every plan case, several hundred of them. */
export function hostilePlans(): PlanCase[] {
  return [
    ...depthCases(),
    ...widthCases(),
    ...referenceCases(),
    ...shapeCases(),
    ...truncationCases(),
    ...grammarCases(10, 60),
    ...editCases(11, 80),
  ];
}

/**
 * `count` references whose hashes in the compiler's string table agree on their low 12 bits: one
 * slot in every table of up to 4096 slots, which holds them all.
 */
function collidingReferences(count: number): string[] {
  const out: string[] = [];
  const target = hashOf('†state.c') & 0xfff;
  for (let i = 0; out.length < count; i++) {
    const text = `†state.c${i}`;
    if ((hashOf(text) & 0xfff) === target) out.push(text);
  }
  return out;
}
