/**
 * bench/regex: the linear-time engines for JSON Schema patterns, against native RegExp measured
 * side by side in the same process. Rows are typical tool-schema patterns and three classic
 * catastrophic ones, on a short string and on a 10,000-character one. "planmode" is re2js as
 * planmode wires it (the JavaScript-to-RE2 translation of src/tools/js-pattern.ts included).
 *
 *     npm run bench:regex
 *
 * re2-wasm and the native re2 are not dependencies. To measure them too, install them in a
 * scratch folder and point REGEX_BENCH_MODULES at it:
 *
 *     mkdir /tmp/engines && cd /tmp/engines && npm init -y && npm i re2-wasm@1.0.2 re2@1.23.3
 *     REGEX_BENCH_MODULES=/tmp/engines npm run bench:regex
 *
 * Native RegExp backtracks: on the catastrophic rows it gets a capped input (the "native input"
 * column), since 10,000 characters would not finish in a lifetime; the engines get both.
 * Import cost, and what compiling thousands of distinct patterns leaves behind, are measured in
 * a fresh child process per engine.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runChildCase } from './child-case.js';
import { median } from './stats.js';
import { printTable } from './table.js';

interface Matcher {
  test(text: string): boolean;
}

interface Engine {
  readonly name: string;
  compile(pattern: string): Matcher;
  /** Compiles the timing may do per pattern (re2-wasm never frees one, and its heap is fixed). */
  readonly compileBudget?: number;
}

interface EngineModule {
  readonly name: string;
  readonly compileBudget?: number;
  /** Module specifier, resolved against this package and then REGEX_BENCH_MODULES. */
  readonly specifier: string;
  readonly make: (module: Record<string, unknown>) => Engine['compile'];
}

type Constructor = new (pattern: string, flags: string) => Matcher;

const ENGINE_MODULES: readonly EngineModule[] = [
  {
    name: 're2js',
    specifier: 're2js',
    make: (m) => {
      const RE2JS = m.RE2JS as { compile(pattern: string): Matcher };
      return (pattern) => RE2JS.compile(pattern);
    },
  },
  {
    name: 'planmode',
    specifier: '../src/tools/linear-regexp.js',
    make: (m) => m.compileLinearRegExpUncached as Engine['compile'],
  },
  {
    name: 're2-wasm',
    specifier: 're2-wasm',
    compileBudget: 30,
    make: (m) => {
      const RE2 = (m.RE2 ?? (m.default as Record<string, unknown>).RE2) as Constructor;
      return (pattern) => new RE2(pattern, 'u');
    },
  },
  {
    name: 're2',
    specifier: 're2',
    make: (m) => {
      const RE2 = (m.default ?? m) as Constructor;
      return (pattern) => new RE2(pattern, 'u');
    },
  },
];

interface Case {
  readonly name: string;
  readonly pattern: string;
  readonly short: string;
  readonly long: string;
  /** Catastrophic for backtracking: native RegExp gets `nativeInput` instead of `long`. */
  readonly nativeInput?: string;
}

const LONG = 10_000;
/** Characters native RegExp gets on the catastrophic rows: about a million backtracking steps. */
const NATIVE_CAP = 20;

const CASES: readonly Case[] = [
  { name: 'id', pattern: '^[a-z0-9_-]{1,64}$', short: 'user_name-42', long: 'a'.repeat(LONG) },
  {
    name: 'email',
    pattern: '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
    short: 'ada.lovelace@example.com',
    long: `${'a'.repeat(LONG)}@example.com`,
  },
  {
    name: 'ISO date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2}))?$',
    short: '2026-11-23T22:19:35.896Z',
    long: `2026-11-23T22:19:35.${'9'.repeat(LONG)}Z`,
  },
  {
    name: 'uuid',
    pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    short: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    long: '1b4e28ba-'.repeat(LONG / 9),
  },
  {
    name: 'unicode name',
    pattern: '^[\\p{L}\\p{N} ._-]+$',
    short: 'Zoë Ångström 42',
    long: 'é'.repeat(LONG),
  },
  {
    name: 'keyword (unanchored)',
    pattern: 'error|warning|fatal',
    short: 'one warning here',
    long: `${'x'.repeat(LONG)}fatal`,
  },
  {
    name: 'nested + (catastrophic)',
    pattern: '^(a+)+$',
    short: 'aaaa!',
    long: `${'a'.repeat(LONG)}!`,
    nativeInput: `${'a'.repeat(NATIVE_CAP)}!`,
  },
  {
    name: '(x+x+)+y (catastrophic)',
    pattern: '(x+x+)+y',
    short: 'xxxx',
    long: 'x'.repeat(LONG),
    nativeInput: 'x'.repeat(NATIVE_CAP),
  },
  {
    name: 'words (catastrophic)',
    pattern: '^(\\w+\\s?)*$',
    short: 'two words!',
    long: `${'a'.repeat(LONG)}!`,
    nativeInput: `${'a'.repeat(NATIVE_CAP)}!`,
  },
];

const native: Engine = { name: 'RegExp', compile: (pattern) => new RegExp(pattern, 'u') };

/**
 * Median time per call in microseconds, over batches long enough to read a clock, or over
 * `maxCalls` calls in all when that is given.
 */
function timePerCall(run: () => void, minBatchMs = 20, batches = 5, maxCalls?: number): number {
  run(); // warm up (and, for lazy engines, build what the first match builds)
  let perBatch = maxCalls === undefined ? 1 : Math.max(1, Math.floor((maxCalls - 1) / batches));
  while (maxCalls === undefined) {
    const t = performance.now();
    for (let i = 0; i < perBatch; i++) run();
    const elapsed = performance.now() - t;
    if (elapsed >= minBatchMs || perBatch >= 1 << 20) break;
    perBatch *= elapsed < 1 ? 16 : 2;
  }
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t = performance.now();
    for (let i = 0; i < perBatch; i++) run();
    samples.push(((performance.now() - t) * 1000) / perBatch);
  }
  return median(samples);
}

function us(value: number): string {
  return value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0);
}

/** Time and ratio against the baseline; a ratio under 0.1 is written as a fraction. */
function withRatio(value: number, baseline: number): string {
  const ratio = value / baseline;
  return `${us(value)} (${ratio >= 0.1 ? ratio.toFixed(1) : `1/${Math.round(1 / ratio).toLocaleString('en')}`}x)`;
}

async function loadEngines(): Promise<{ engines: Engine[]; missing: string[] }> {
  const engines: Engine[] = [];
  const missing: string[] = [];
  for (const module of ENGINE_MODULES) {
    const url = resolveEngine(module.specifier);
    if (url === undefined) {
      missing.push(module.name);
      continue;
    }
    engines.push({
      name: module.name,
      compile: module.make((await import(url)) as Record<string, unknown>),
      ...(module.compileBudget !== undefined && { compileBudget: module.compileBudget }),
    });
  }
  return { engines, missing };
}

/** The engine's module URL: this package's own (as `import` resolves it), else REGEX_BENCH_MODULES's. */
function resolveEngine(specifier: string): string | undefined {
  if (specifier.startsWith('.')) return new URL(specifier, import.meta.url).href;
  try {
    return import.meta.resolve(specifier);
  } catch {
    // not a dependency of this package
  }
  const scratch = process.env.REGEX_BENCH_MODULES;
  if (scratch === undefined) return undefined;
  try {
    return pathToFileURL(createRequire(pathToFileURL(`${scratch}/package.json`)).resolve(specifier)).href;
  } catch {
    return undefined; // not installed there either
  }
}

/** A few compiles and matches of every pattern per engine, so no table times a cold JIT. */
function warmUp(engines: readonly Engine[]): void {
  for (const engine of [native, ...engines])
    for (let round = 0; round < (engine.compileBudget === undefined ? 20 : 1); round++)
      for (const c of CASES) engine.compile(c.pattern).test(c.short);
}

function compileTable(engines: readonly Engine[]): void {
  console.log('\n### Compile + first match (µs per pattern; ratio against native RegExp)\n');
  console.log('re2-wasm is timed over 30 compiles per pattern: it never frees one, and its heap is fixed.\n');
  const rows = CASES.map((c) => {
    const base = timePerCall(() => native.compile(c.pattern).test(c.short));
    return [
      c.name,
      '`' + c.pattern + '`',
      us(base),
      ...engines.map((e) =>
        withRatio(
          timePerCall(() => e.compile(c.pattern).test(c.short), 20, 5, e.compileBudget),
          base,
        ),
      ),
    ];
  });
  printTable(['case', 'pattern', 'RegExp', ...engines.map((e) => e.name)], rows);
}

function matchTable(engines: readonly Engine[]): void {
  console.log('\n### Match (µs per test() call on a compiled pattern; ratio against native RegExp)\n');
  const rows: string[][] = [];
  for (const c of CASES) {
    const compiled = engines.map((e) => e.compile(c.pattern));
    const nativeCompiled = native.compile(c.pattern);
    for (const [label, input] of [
      ['short', c.short],
      [`${LONG / 1000}k`, c.long],
    ] as const) {
      const nativeInput = label === 'short' || c.nativeInput === undefined ? input : c.nativeInput;
      const base = timePerCall(() => nativeCompiled.test(nativeInput), 20, label === 'short' ? 5 : 3);
      const capped = nativeInput !== input;
      rows.push([
        c.name,
        label,
        capped ? `${nativeInput.length} chars (capped)` : `${input.length} chars`,
        us(base),
        ...compiled.map((m) =>
          withRatio(
            timePerCall(() => m.test(input)),
            base,
          ),
        ),
      ]);
      if (capped) {
        // The engines on the native's capped input too, so that row has a like-for-like ratio.
        rows.push([
          c.name,
          `${nativeInput.length} chars`,
          `${nativeInput.length} chars`,
          us(base),
          ...compiled.map((m) =>
            withRatio(
              timePerCall(() => m.test(nativeInput)),
              base,
            ),
          ),
        ]);
      }
    }
  }
  printTable(['case', 'engine input', 'native input', 'RegExp', ...engines.map((e) => e.name)], rows);
}

interface ImportResult {
  importMs: number;
  firstUseMs: number;
  rssMb: number;
  heapMb: number;
  externalMb: number;
}

/** In a fresh child: import one engine, then compile and test every case's pattern once. */
async function importCase(index: number): Promise<ImportResult> {
  const module = ENGINE_MODULES[index];
  const before = process.memoryUsage();
  let t = performance.now();
  const make = module
    ? module.make((await import(resolveEngine(module.specifier)!)) as Record<string, unknown>)
    : null;
  const importMs = performance.now() - t;
  const compile = make ?? native.compile;
  t = performance.now();
  for (const c of CASES) compile(c.pattern).test(c.short);
  const firstUseMs = performance.now() - t;
  const after = process.memoryUsage();
  const mb = (bytes: number) => bytes / (1 << 20);
  return {
    importMs,
    firstUseMs,
    rssMb: mb(after.rss - before.rss),
    heapMb: mb(after.heapUsed - before.heapUsed),
    externalMb: mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers),
  };
}

function importTable(available: readonly string[]): void {
  console.log('\n### Import and first use (fresh process each; median of 5)\n');
  const script = fileURLToPath(import.meta.url);
  const measure = (index: number) => {
    const runs = [0, 1, 2, 3, 4].map(() =>
      runChildCase<ImportResult>({ script, shape: 'import', size: index }),
    );
    const pick = (key: keyof ImportResult) => median(runs.map((r) => r[key])).toFixed(1);
    return [pick('importMs'), pick('firstUseMs'), pick('rssMb'), pick('heapMb'), pick('externalMb')];
  };
  const rows = [['RegExp (built in)', ...measure(-1)]];
  ENGINE_MODULES.forEach((m, i) => {
    if (available.includes(m.name)) rows.push([m.name, ...measure(i)]);
  });
  printTable(
    [
      'engine',
      'import ms',
      `compile + test ${CASES.length} patterns ms`,
      'RSS growth MB',
      'JS heap growth MB',
      'external + WASM MB',
    ],
    rows,
  );
}

interface DistinctResult {
  compiled: number;
  failure: string | null;
  rssMb: number;
  externalMb: number;
}

/** Distinct patterns a process compiles: a `regex`-format value or a new tool each time. */
const DISTINCT = 5_000;

/** In a fresh child: compile many distinct patterns (dropping each) and see what stays. */
async function distinctCase(index: number): Promise<DistinctResult> {
  const module = ENGINE_MODULES[index]!;
  const compile = module.make((await import(resolveEngine(module.specifier)!)) as Record<string, unknown>);
  let compiled = 0;
  let failure: string | null = null;
  try {
    for (; compiled < DISTINCT; compiled++) compile(`^[a-z0-9_-]{1,64}${compiled}$`).test('abc');
  } catch (e) {
    failure = (e instanceof Error ? e.message : String(e)).slice(0, 60);
  }
  const after = process.memoryUsage();
  return {
    compiled,
    failure,
    rssMb: after.rss / (1 << 20),
    externalMb: (after.external + after.arrayBuffers) / (1 << 20),
  };
}

function distinctTable(available: readonly string[]): void {
  console.log(
    `\n### ${DISTINCT.toLocaleString('en')} distinct patterns compiled and dropped (fresh process each)\n`,
  );
  const script = fileURLToPath(import.meta.url);
  const rows: string[][] = [];
  ENGINE_MODULES.forEach((m, i) => {
    if (!available.includes(m.name)) return;
    const r = runChildCase<DistinctResult>({ script, shape: 'distinct', size: i });
    rows.push([m.name, String(r.compiled), r.failure ?? 'none', r.rssMb.toFixed(0), r.externalMb.toFixed(0)]);
  });
  printTable(['engine', 'compiled', 'failure', 'RSS MB after', 'external + WASM MB after'], rows);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    const result =
      args[1] === 'distinct' ? await distinctCase(Number(args[2])) : await importCase(Number(args[2]));
    console.log(JSON.stringify(result));
    return;
  }
  const { engines, missing } = await loadEngines();
  console.log(`## bench/regex (Node ${process.version})`);
  if (missing.length > 0)
    console.log(
      `\nNot installed, so not measured: ${missing.join(', ')} (see REGEX_BENCH_MODULES in bench/regex.ts).`,
    );
  console.log(
    `\nNative RegExp's input on the catastrophic rows is capped at ${NATIVE_CAP} characters (its time doubles with each more); the engines get the full input, and the capped one on the row after.`,
  );
  warmUp(engines);
  compileTable(engines);
  matchTable(engines);
  importTable(engines.map((e) => e.name));
  distinctTable(engines.map((e) => e.name));
}

await main();
