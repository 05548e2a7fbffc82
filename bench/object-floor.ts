/**
 * bench/compile's second baseline: the least a compiler with planmode's output must do. From
 * JSON.parse of the text it makes the objects a compiled plan holds (per call: the call, its
 * arguments without meta keys, an object per reference argument, the output path; per distinct
 * reference string: its parsed form, shared by equal strings), binds each read to the last
 * writer of its path, and orders the calls (Kahn, in typed arrays). It checks nothing and reads
 * only the reference syntax the generated plans use (`†state.name`), so it is a floor for the
 * generated plans, not a compiler: what `compile` costs above it is its checks and its
 * general graph; what it costs up to it, any compiler with this output pays.
 */

interface FloorReference {
  readonly root: 'state';
  readonly segments: readonly string[];
  readonly text: string;
  readonly start: number;
}

interface FloorExpression {
  readonly op: null;
  readonly refs: readonly FloorReference[];
}

const DAGGER = 0x2020;
const UNDERSCORE = 95;
const STATE_PREFIX = '†state.'.length;

/** Builds the floor's plan from the text; returns its sizes so the work cannot be skipped. */
export function buildObjectsOnly(text: string): { calls: number; edges: number; last: number } {
  const raw = JSON.parse(text) as Record<string, unknown>[];
  const n = raw.length;
  const parsed = new Map<string, FloorExpression>();
  const lastWriter = new Map<string, number>();
  const calls: object[] = new Array(n);
  let from: Int32Array<ArrayBuffer> = new Int32Array(n * 3 + 1);
  let to: Int32Array<ArrayBuffer> = new Int32Array(n * 3 + 1);
  let edges = 0;
  /** `marked[w] === i` when call i depends on w already: one edge per pair, as compile keeps. */
  const marked = new Int32Array(n).fill(-1);
  const expressionOf = (value: string): FloorExpression => {
    let expression = parsed.get(value);
    if (!expression) {
      const ref = { root: 'state' as const, segments: [value.slice(STATE_PREFIX)], text: value, start: 0 };
      expression = { op: null, refs: [ref] };
      parsed.set(value, expression);
    }
    return expression;
  };
  for (let i = 0; i < n; i++) {
    const call = raw[i]!;
    const args: Record<string, unknown> = {};
    const refs: { at: string; expression: FloorExpression; text: string }[] = [];
    for (const key of Object.keys(call)) {
      if (key.charCodeAt(0) === UNDERSCORE) continue;
      const value = call[key];
      args[key] = value;
      if (typeof value !== 'string' || value.charCodeAt(0) !== DAGGER) continue;
      refs.push({ at: `/${key}`, expression: expressionOf(value), text: value });
      const writer = lastWriter.get(value);
      if (writer === undefined || marked[writer] === i) continue;
      marked[writer] = i;
      if (edges === from.length) [from, to] = [grow(from), grow(to)];
      from[edges] = writer;
      to[edges++] = i;
    }
    const output = call._outputPath;
    let outputPath = null;
    if (typeof output === 'string') {
      const expression = expressionOf(output);
      outputPath = { op: null, paths: expression.refs, refs: expression.refs, text: output };
      lastWriter.set(output, i);
    }
    calls[i] = {
      index: i,
      id: String(i),
      tool: call._tool,
      pointer: `/${i}`,
      args,
      refs,
      literals: [],
      outputPath,
      hasOutput: false,
      output: undefined,
    };
  }
  return { calls: calls.length, edges, last: order(n, from, to, edges) };
}

/** Kahn's order over the edges; returns the last call placed. */
function order(n: number, from: Int32Array, to: Int32Array, edges: number): number {
  const indegree = new Int32Array(n);
  const offsets = new Int32Array(n + 1);
  for (let e = 0; e < edges; e++) {
    indegree[to[e]!]!++;
    offsets[from[e]! + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const targets = new Int32Array(edges);
  const fill = offsets.slice(0, n);
  for (let e = 0; e < edges; e++) targets[fill[from[e]!]!++] = to[e]!;
  const queue = new Int32Array(n);
  let tail = 0;
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue[tail++] = i;
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    for (let k = offsets[v]!; k < offsets[v + 1]!; k++)
      if (--indegree[targets[k]!]! === 0) queue[tail++] = targets[k]!;
  }
  return tail > 0 ? queue[tail - 1]! : -1;
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
