/**
 * A plan's calls in a form two plans can be compared in, whatever labels they use: each call is
 * its tool and its arguments, with every reference replaced by what it reads rather than by how
 * it is spelled. A reference becomes `{"†ref": ["<tool>#<n><path>"]}`: the call that writes
 * what it reads (its tool, and which call of that tool it is, 1 for the first, in plan order)
 * and the path of the read below that call's `_outputPath`. `†state.var1.distance` and
 * `†state.step_a.distance` are the same argument when `var1` and `step_a` are each the first
 * call of the same tool.
 *
 * Who writes what a read reads is planmode's own binding (the compiled plan's `reads`), not a
 * match on the text. A plan that does not compile still has its calls compared: its references
 * keep their text (`{"†ref": ["†state.var1.distance"], "unbound": true}`), which matches only the
 * same unbound text.
 */
import { formatPath, type PathSegment, segmentsBelow, type Wildcard } from '../../language/paths.js';
import { splitPointer } from '../../language/pointer.js';
import { cloneJson, setOwnProperty } from '../../language/json/index.js';
import type { CompiledCall, CompiledPlan } from '../../compile/index.js';
import { canonicalJson } from '../../run/journal/index.js';

/** One call, compared by its tool and its normalised arguments. */
export interface NormalizedCall {
  readonly tool: string;
  /** Argument name -> canonical JSON of its normalised value. */
  readonly args: ReadonlyMap<string, string>;
  /** canonical JSON of [tool, normalised arguments]: equal keys, equal calls. */
  readonly key: string;
}

/** The calls of a compiled plan, normalised. */
export function normalizeCompiled(plan: CompiledPlan): NormalizedCall[] {
  const occurrence = occurrences(plan.calls.map((c) => c.tool));
  return plan.calls.map((call) => {
    const args = cloneJson(call.args) as Record<string, unknown>;
    // The reads at each argument pointer, grouped once (a call may have thousands of references).
    const readsAt = new Map<string, (typeof call.reads)[number][]>();
    for (const read of call.reads) {
      const list = readsAt.get(read.at);
      if (list) list.push(read);
      else readsAt.set(read.at, [read]);
    }
    // A pointer may hold an expression of several references (`||`, `&&`): one replacement each.
    const seen = new Set<string>();
    for (const ref of call.refs) {
      if (seen.has(ref.at)) continue;
      seen.add(ref.at);
      const reads = readsAt.get(ref.at) ?? [];
      const texts = ref.expression.refs.map((r) => {
        const read = reads.find((b) => b.ref.start === r.start);
        return readText(plan, occurrence, r, read?.writers ?? []);
      });
      replaceAt(args, ref.at, {
        '†ref': texts,
        ...(ref.expression.op !== null && { op: ref.expression.op }),
      });
    }
    return normalized(call.tool, args);
  });
}

/**
 * The calls of a plan that did not compile, as written: `_tool` and the arguments, references
 * kept as their text. Calls that are not objects with a string `_tool` have the tool `""`.
 */
export function normalizeRaw(calls: readonly unknown[]): NormalizedCall[] {
  return calls.map((raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return normalized('', {});
    const record = raw as Record<string, unknown>;
    const tool = typeof record._tool === 'string' ? record._tool : '';
    const args: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (key.startsWith('_')) continue;
      setOwnProperty(args, key, markUnbound(record[key]));
    }
    return normalized(tool, args);
  });
}

function normalized(tool: string, args: Record<string, unknown>): NormalizedCall {
  const byName = new Map<string, string>();
  for (const name of Object.keys(args)) byName.set(name, canonicalJson(args[name]));
  return { tool, args: byName, key: canonicalJson([tool, args]) };
}

/** For each call, which call of its tool it is: 1 for the first, in plan order. */
function occurrences(tools: readonly string[]): number[] {
  const counts = new Map<string, number>();
  return tools.map((tool) => {
    const n = (counts.get(tool) ?? 0) + 1;
    counts.set(tool, n);
    return n;
  });
}

/** What one reference of an expression reads, named by its writers (see the header). */
function readText(
  plan: CompiledPlan,
  occurrence: readonly number[],
  ref: { readonly root: 'input' | 'state'; readonly segments: readonly (PathSegment | Wildcard)[] },
  writers: readonly number[],
): string {
  const whole = formatPath(ref.root, ref.segments);
  if (writers.length === 0) return whole;
  return writers
    .map((w) => {
      const producer: CompiledCall = plan.calls[w]!;
      const name = `${producer.tool}#${occurrence[w]}`;
      for (const path of producer.outputPath?.paths ?? []) {
        const below = segmentsBelow(path.segments, ref.segments);
        if (path.root === ref.root && below) return name + formatPath(ref.root, below).slice('†state'.length);
      }
      return `${name}@${whole}`;
    })
    .sort()
    .join(' | ');
}

function replaceAt(args: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = splitPointer(pointer);
  let node: unknown = args;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (node === null || typeof node !== 'object') return;
    node = Object.hasOwn(node, tokens[i]!) ? (node as Record<string, unknown>)[tokens[i]!] : undefined;
  }
  if (node !== null && typeof node === 'object' && tokens.length > 0)
    setOwnProperty(node, tokens[tokens.length - 1]!, value);
}

/** A raw argument: a string that starts with `†` (a reference as written) is marked unbound. */
function markUnbound(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('†') && !value.startsWith('††'))
    return { '†ref': [value], unbound: true };
  return value;
}
