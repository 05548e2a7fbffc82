/**
 * bench/binding-layout: a prototype, not the compiler. It asks how much of binding the 100k
 * random plan's reads to their writers is the memory layout: the plan's three reads and one
 * write per call, bound with the compiler's own StringTable and nothing else (no checks, no
 * columns, no overlapping paths), in four layouts, alternating in one process:
 *
 * - records and nodes: as the compiler does it, a facts record per reference string leading
 *   to a trie node object per path (the nodes under `state` found by a Map of names);
 * - nodes, no record: the string's number leads to the node object directly;
 * - flat by path: the string's number leads to a path number (found once per new string
 *   through a Map of names), and each path's last writer and reader list sit in one Int32Array;
 * - flat by string: the string's number is the path number (no Map): what a compiler could do
 *   when strings name their paths one canonical way, as `†state.v123` does.
 *
 * Every layout must find the same number of edges, or the bench stops. `--pollute` also copies
 * each call's arguments and keeps a call object per call, as reading the calls does, so that
 * the caches hold more than the binding's own data.
 *
 *     npm run build && node dist/bench/binding-layout.js [--pollute] [--calls 100000] [--runs 9]
 */
import { StringTable } from '../src/language/string-table.js';
import { generatePlan } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

type RawCall = Record<string, unknown> & { _outputPath: string };

const READ_KEYS = ['a', 'b', 'c'] as const;
/** Length of `†state.`: what is left of an output path is its one name. */
const STATE_PREFIX = 7;
const NONE = -1;

/** What the layouts share: reader lists in two Int32Arrays, dependencies deduplicated by call. */
class Binding {
  readonly readerCall: Int32Array;
  readonly readerNext: Int32Array;
  readersUsed = 0;
  readonly marked: Int32Array;
  edges = 0;
  /** Objects kept per call when polluting (see the file comment). */
  readonly kept: unknown[];

  constructor(
    calls: number,
    readonly pollute: boolean,
  ) {
    this.readerCall = new Int32Array(calls * READ_KEYS.length);
    this.readerNext = new Int32Array(calls * READ_KEYS.length);
    this.marked = new Int32Array(calls).fill(NONE);
    this.kept = pollute ? new Array<unknown>(calls) : [];
  }

  /** Call i read a path whose last writer is w: one edge, unless already there. */
  depend(i: number, w: number): void {
    if (w !== NONE && this.marked[w] !== i) {
      this.marked[w] = i;
      this.edges++;
    }
  }

  /** Prepends call i to the list at `head`; returns the new head. */
  addReader(head: number, i: number): number {
    const at = this.readersUsed++;
    this.readerCall[at] = i;
    this.readerNext[at] = head;
    return at;
  }

  touch(call: RawCall, i: number): void {
    if (!this.pollute) return;
    const args: Record<string, unknown> = {};
    for (const key in call) if (!key.startsWith('_')) args[key] = call[key];
    this.kept[i] = { index: i, tool: call._tool, args, output: { text: call._outputPath } };
  }
}

interface TrieNode {
  lastWriter: number;
  readers: number;
}

interface Facts {
  readonly text: string;
  readonly node: TrieNode;
}

/**
 * Node objects under a Map of names; with `viaRecord`, a string's number leads to a facts
 * record that leads to the node (as the compiler), else to the node itself.
 */
function nodeObjects(calls: readonly RawCall[], binding: Binding, viaRecord: boolean): void {
  const table = new StringTable();
  const byNumber: (Facts | TrieNode)[] = [];
  const children = new Map<string, TrieNode>();
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    binding.touch(call, i);
    for (const key of READ_KEYS) {
      const value = call[key];
      if (typeof value !== 'string') continue;
      const found = byNumber[table.find(value)]!;
      const node = viaRecord ? (found as Facts).node : (found as TrieNode);
      binding.depend(i, node.lastWriter);
      node.readers = binding.addReader(node.readers, i);
    }
    const out = call._outputPath;
    let n = table.find(out);
    if (n < 0) n = table.add(out);
    const name = out.slice(STATE_PREFIX);
    let node = children.get(name);
    if (!node) {
      node = { lastWriter: NONE, readers: NONE };
      children.set(name, node);
    }
    byNumber[n] = viaRecord ? { text: out, node } : node;
    node.lastWriter = i;
    node.readers = NONE;
  }
}

/** Per path, its last writer and the head of its reader list, side by side. */
class FlatPaths {
  #pairs = new Int32Array(2 * 1024).fill(NONE);

  writer(p: number): number {
    return this.#pairs[2 * p]!;
  }

  addReader(p: number, i: number, binding: Binding): void {
    this.#pairs[2 * p + 1] = binding.addReader(this.#pairs[2 * p + 1]!, i);
  }

  write(p: number, i: number): void {
    if (2 * p + 1 >= this.#pairs.length) {
      const bigger = new Int32Array(this.#pairs.length * 2).fill(NONE);
      bigger.set(this.#pairs);
      this.#pairs = bigger;
    }
    this.#pairs[2 * p] = i;
    this.#pairs[2 * p + 1] = NONE;
  }
}

function flatByPath(calls: readonly RawCall[], binding: Binding): void {
  const table = new StringTable();
  const paths = new FlatPaths();
  let pathOf = new Int32Array(1024);
  const pathNumbers = new Map<string, number>();
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    binding.touch(call, i);
    for (const key of READ_KEYS) {
      const value = call[key];
      if (typeof value !== 'string') continue;
      const p = pathOf[table.find(value)]!;
      binding.depend(i, paths.writer(p));
      paths.addReader(p, i, binding);
    }
    const out = call._outputPath;
    let n = table.find(out);
    let p: number;
    if (n < 0) {
      n = table.add(out);
      const name = out.slice(STATE_PREFIX);
      p = pathNumbers.get(name) ?? pathNumbers.size;
      if (p === pathNumbers.size) pathNumbers.set(name, p);
      if (n >= pathOf.length) {
        const bigger = new Int32Array(pathOf.length * 2);
        bigger.set(pathOf);
        pathOf = bigger;
      }
      pathOf[n] = p;
    } else p = pathOf[n]!;
    paths.write(p, i);
  }
}

function flatByString(calls: readonly RawCall[], binding: Binding): void {
  const table = new StringTable();
  const paths = new FlatPaths();
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    binding.touch(call, i);
    for (const key of READ_KEYS) {
      const value = call[key];
      if (typeof value !== 'string') continue;
      const p = table.find(value);
      binding.depend(i, paths.writer(p));
      paths.addReader(p, i, binding);
    }
    const out = call._outputPath;
    let n = table.find(out);
    if (n < 0) n = table.add(out);
    paths.write(n, i);
  }
}

const LAYOUTS: readonly (readonly [string, (calls: readonly RawCall[], binding: Binding) => void])[] = [
  ['records and nodes (as the compiler)', (calls, binding) => nodeObjects(calls, binding, true)],
  ['nodes, no record', (calls, binding) => nodeObjects(calls, binding, false)],
  ['flat by path', flatByPath],
  ['flat by string', flatByString],
];

const USAGE = 'usage: node dist/bench/binding-layout.js [--pollute] [--calls N] [--runs N]';

/** A positive integer flag's value, or its default; a bad value is a message and exit 2. */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const text = process.argv[at + 1] ?? '';
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`binding-layout: ${name} must be a positive integer, not "${text}"\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

function main(): void {
  const calls = option('--calls', 100_000);
  const runs = option('--runs', 9);
  const pollute = process.argv.includes('--pollute');
  const text = JSON.stringify(generatePlan('random', calls));
  const times = LAYOUTS.map(() => [] as number[]);
  let edges: number | undefined;
  for (let r = 0; r < runs; r++) {
    // Alternating, and the order flipped each run, so no layout always runs after the same one.
    const order = LAYOUTS.map((_, k) => (r % 2 === 0 ? k : LAYOUTS.length - 1 - k));
    for (const k of order) {
      const parsed = JSON.parse(text) as RawCall[];
      const binding = new Binding(parsed.length, pollute);
      const t = performance.now();
      LAYOUTS[k]![1](parsed, binding);
      times[k]!.push(performance.now() - t);
      if (edges !== undefined && binding.edges !== edges) {
        throw new Error(`${LAYOUTS[k]![0]} found ${binding.edges} edges, another ${edges}`);
      }
      edges = binding.edges;
    }
  }
  console.log(
    `bench/binding-layout: the random plan's binding loop alone, ${calls.toLocaleString('en-US')} calls, ` +
      `${edges!.toLocaleString('en-US')} edges${pollute ? ', with per-call objects kept' : ''}; ` +
      `median of ${runs} alternating runs; node ${process.version}\n`,
  );
  const base = median(times[0]!);
  printTable(
    ['layout', 'ms', 'vs the compiler'],
    LAYOUTS.map(([name], k) => [name, ms(median(times[k]!)), `${(median(times[k]!) / base).toFixed(2)}x`]),
  );
}

main();
