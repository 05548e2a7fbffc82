/**
 * Hostile tool behaviour: results JSON cannot carry or that break the limits, and thrown values
 * of every type. Each case is the source of a JS expression, so the same case runs in process
 * (the module imported) and through `plan run` (the module as --tools).
 */

/** The corpus runs tools under this maxTextLength: big enough for every ok case, small enough to be quick. */
export const CORPUS_TEXT_LIMIT = 1_000_000;

export interface ResultCase {
  readonly name: string;
  /** An expression whose value the tool returns (or throws, with `throws`). */
  readonly source: string;
  readonly throws?: boolean;
  /** `ok`: the call succeeds; otherwise the failed call's error code. */
  readonly outcome: 'ok' | 'INVALID_OUTPUT' | 'LIMIT' | 'THROWN';
  /** For `ok`: the state written, as JSON text. */
  readonly written?: string;
}

const returned: [string, string, ResultCase['outcome'], string?][] = [
  ['a cycle', '(() => { const a = { n: 1 }; a.self = a; return a; })()', 'INVALID_OUTPUT'],
  [
    'a cycle through an array',
    '(() => { const a = []; a.push({ back: a }); return a; })()',
    'INVALID_OUTPUT',
  ],
  ['a nested BigInt', '({ a: { b: [1n] } })', 'INVALID_OUTPUT'],
  ['a BigInt', '10n', 'INVALID_OUTPUT'],
  ['a function member', '({ f() {} })', 'INVALID_OUTPUT'],
  ['a function', '() => 1', 'INVALID_OUTPUT'],
  ['a symbol in an array', '[Symbol.iterator]', 'INVALID_OUTPUT'],
  ['a Map', 'new Map([[1, 2]])', 'INVALID_OUTPUT'],
  ['a Set', '({ s: new Set([1]) })', 'INVALID_OUTPUT'],
  ['a WeakMap', 'new WeakMap()', 'INVALID_OUTPUT'],
  ['a nested Promise', '({ p: Promise.resolve(1) })', 'INVALID_OUTPUT'],
  ['a RegExp', '/a+/', 'INVALID_OUTPUT'],
  ['an Error', 'new TypeError("x")', 'INVALID_OUTPUT'],
  ['a Uint8Array', 'new Uint8Array(4)', 'INVALID_OUTPUT'],
  ['an ArrayBuffer', 'new ArrayBuffer(8)', 'INVALID_OUTPUT'],
  ['a DataView', 'new DataView(new ArrayBuffer(8))', 'INVALID_OUTPUT'],
  [
    'an own getter that throws',
    '(() => { const o = {}; Object.defineProperty(o, "x", { enumerable: true, get() { throw new Error("no"); } }); return o; })()',
    'INVALID_OUTPUT',
  ],
  [
    'a Proxy whose ownKeys throws',
    'new Proxy({}, { ownKeys() { throw new Error("trap"); } })',
    'INVALID_OUTPUT',
  ],
  [
    'a Proxy whose get throws',
    'new Proxy({ a: 1 }, { get() { throw new Error("trap"); } })',
    'INVALID_OUTPUT',
  ],
  [
    'a Proxy whose getPrototypeOf throws',
    '[new Proxy({}, { getPrototypeOf() { throw new Error("trap"); } })]',
    'INVALID_OUTPUT',
  ],
  [
    'a revoked Proxy',
    '(() => { const r = Proxy.revocable({}, {}); r.revoke(); return { p: r.proxy }; })()',
    'INVALID_OUTPUT',
  ],
  ['a toJSON that throws', '({ toJSON() { throw new Error("nope"); } })', 'INVALID_OUTPUT'],
  ['a toJSON that returns a BigInt', '({ toJSON() { return 1n; } })', 'INVALID_OUTPUT'],
  ['a sparse array of 2^32-1', '(() => { const a = []; a.length = 2 ** 32 - 1; return a; })()', 'LIMIT'],
  [
    '100k levels deep',
    '(() => { let v = 1; for (let i = 0; i < 100000; i++) v = [v]; return v; })()',
    'LIMIT',
  ],
  [
    '64 levels deep under a 1-segment path',
    '(() => { let v = 1; for (let i = 0; i < 64; i++) v = [v]; return v; })()',
    'LIMIT',
  ],
  [
    'a doubling DAG of 2^40 leaves',
    '(() => { let v = "x"; for (let i = 0; i < 40; i++) v = { l: v, r: v }; return v; })()',
    'LIMIT',
  ],
  ['a string longer than maxTextLength', '"x".repeat(2 * CORPUS_TEXT_LIMIT)', 'LIMIT'],
  ['NaN', 'Number.NaN', 'ok', 'null'],
  ['-Infinity in an array', '[-Infinity, 1]', 'ok', '[null,1]'],
  ['-0', '-0', 'ok', '0'],
  ['an invalid Date', 'new Date(NaN)', 'ok', 'null'],
  ['a Date', 'new Date(0)', 'ok', '"1970-01-01T00:00:00.000Z"'],
  ['undefined members', '({ a: undefined, b: [undefined] })', 'ok', '{"b":[null]}'],
  ['symbol keys', '({ [Symbol("k")]: 1, a: 2 })', 'ok', '{"a":2}'],
  ['a boxed string', 'new String("s")', 'ok', '"s"'],
  [
    'a __proto__ key',
    'JSON.parse(\'{"__proto__": {"polluted": true}}\')',
    'ok',
    '{"__proto__":{"polluted":true}}',
  ],
  [
    'a class instance',
    '(() => { class P { constructor() { this.x = 1; } get y() { throw new Error("unused"); } } return new P(); })()',
    'ok',
    '{"x":1}',
  ],
  ['a lone surrogate', '"\\ud800"', 'ok', '"\\ud800"'],
];

const thrown: [string, string][] = [
  ['a string', '"plain"'],
  ['null', 'null'],
  ['undefined', 'undefined'],
  ['a BigInt', '10n'],
  ['a symbol', 'Symbol("s")'],
  ['a cyclic object', '(() => { const a = {}; a.a = a; return a; })()'],
  [
    'a Proxy whose traps throw',
    'new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } })',
  ],
  [
    'an Error whose message getter throws',
    '(() => { const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw new Error("trap"); } }); return e; })()',
  ],
  ['an Error with a numeric code', 'Object.assign(new Error("x"), { code: 42 })'],
  ['a 5 MB message', 'new Error("m".repeat(5 * 1024 * 1024))'],
  ['an object whose toString throws', '({ toString() { throw new Error("trap"); } })'],
];

export function hostileResults(): ResultCase[] {
  return [
    ...returned.map(([name, source, outcome, written]) => ({
      name: `returns ${name}`,
      source,
      outcome,
      ...(written !== undefined && { written }),
    })),
    ...returned
      .filter(([, , outcome]) => outcome !== 'ok')
      .map(([name, source, outcome]) => ({
        name: `resolves to ${name}`,
        source: `Promise.resolve(${source})`,
        // Resolving a promise reads the value's `then`: a getter that throws there rejects it.
        outcome: name === 'a Proxy whose get throws' ? ('THROWN' as const) : outcome,
      })),
    ...thrown.map(([name, source]) => ({
      name: `throws ${name}`,
      source,
      throws: true,
      outcome: 'THROWN' as const,
    })),
    ...thrown.map(([name, source]) => ({
      name: `rejects with ${name}`,
      source: `Promise.reject(${source})`,
      outcome: 'THROWN' as const,
    })),
  ];
}

/** A tools module with one tool per case, `r0`, `r1`, ...: each returns (or throws) its value. */
export function resultsModule(cases: readonly ResultCase[]): string {
  const tools = cases.map((c, i) =>
    c.throws
      ? `{ name: "r${i}", execute() { throw ${c.source}; } }`
      : `{ name: "r${i}", execute() { return ${c.source}; } }`,
  );
  return `const CORPUS_TEXT_LIMIT = ${CORPUS_TEXT_LIMIT};\nexport const tools = [\n  ${tools.join(',\n  ')},\n  { name: "use", execute: (a) => a.v },\n];\n`;
}
