/**
 * How the calls downstream of one call end when it ends without its output, by the executor's
 * own rules (run/runner/runner.ts `ready`, run/schedule/order-gates.ts, run/state/taint.ts),
 * applied to the compiled graph in topological order, once per descendant:
 *
 * 1. Program order first: a call that follows (an effect, or its `_after`) a call that failed
 *    unhandled or ended `upstream_failed` ends `upstream_failed`. Following a skipped call, or
 *    one whose failure was handled, holds nothing back.
 * 2. Then its reads: a reference's value is missing when none of the calls that write it can
 *    still write it (nor an earlier writer their write would have replaced, nor the initial
 *    state); an `||` misses when all its references do, a single reference or an `&&` when one
 *    does. A call with a value missing ends `upstream_failed` when a writer of a missing value
 *    failed unhandled or ended `upstream_failed` itself (the run's taint), `skipped` otherwise.
 * 3. Else it may run: order edges of shared paths (write after write, write after read) are
 *    only timing, and a reader of a handled failure's error alternative gets the error.
 *
 * Every call that is not downstream runs as it can, and may take any of its alternatives.
 */
import { getAtPath, type Path } from '../language/paths.js';
import type { OrderGates } from '../compile/order/index.js';
import type { CompiledCall, CompiledPlan, ReadBinding } from '../compile/types.js';

/** How a call ends in the case considered. */
export const RUNS = 0;
export const FAILED = 1;
export const HANDLED = 2;
export const SKIPPED = 3;
export const UPSTREAM_FAILED = 4;
export type Fate = typeof RUNS | typeof FAILED | typeof HANDLED | typeof SKIPPED | typeof UPSTREAM_FAILED;

export interface OutcomeInput {
  readonly plan: CompiledPlan;
  /** The compile's program-order gates, or undefined when the plan has none. */
  readonly gates: OrderGates | undefined;
  /** The call considered. */
  readonly origin: number;
  /** How it ends: FAILED (unhandled, or held back), HANDLED or SKIPPED. */
  readonly fate: typeof FAILED | typeof HANDLED | typeof SKIPPED;
  /** Its descendants, in topological order. */
  readonly descendants: readonly number[];
}

/** The fate of each descendant (same order as `descendants`). */
export function downstreamFates(input: OutcomeInput): Fate[] {
  const { plan, gates, origin, descendants } = input;
  const fates = new Map<number, Fate>([[origin, input.fate]]);
  const fateOf = (i: number): Fate => fates.get(i) ?? RUNS;
  const out: Fate[] = [];
  for (const i of descendants) {
    const fate = gated(gates, i, fateOf) ? UPSTREAM_FAILED : readsFate(plan, plan.calls[i]!, fateOf);
    fates.set(i, fate);
    out.push(fate);
  }
  return out;
}

function gated(gates: OrderGates | undefined, i: number, fateOf: (i: number) => Fate): boolean {
  if (!gates) return false;
  for (let e = gates.first(i); e !== -1; e = gates.next(e)) {
    const f = fateOf(gates.other(e));
    if (f === FAILED || f === UPSTREAM_FAILED) return true;
  }
  return false;
}

/** What the call's arguments make of it: RUNS, SKIPPED or UPSTREAM_FAILED. */
function readsFate(plan: CompiledPlan, call: CompiledCall, fateOf: (i: number) => Fate): Fate {
  let missing = false;
  let tainted = false;
  for (let k = 0; k < call.refCount; k++) {
    const expression = call.refExpression(k);
    const at = call.refAt(k);
    const bindings = expression.refs.map((ref) => bindingOf(call, at, ref));
    const present = bindings.map((b) => b === undefined || isPresent(plan, b, fateOf));
    const misses = expression.op === '||' ? !present.includes(true) : present.includes(false);
    if (!misses) continue;
    missing = true;
    // The run lists every reference of a missing expression (one, or all of an || or &&).
    const listed = expression.op === null ? bindings.filter((_, r) => !present[r]) : bindings;
    if (listed.some((b) => b !== undefined && isTainted(b, fateOf))) tainted = true;
  }
  return !missing ? RUNS : tainted ? UPSTREAM_FAILED : SKIPPED;
}

function bindingOf(call: CompiledCall, at: string, ref: ReadBinding['ref']): ReadBinding | undefined {
  let byText: ReadBinding | undefined;
  for (const b of call.reads) {
    if (b.at !== at) continue;
    if (b.ref === ref) return b;
    if (b.ref.text === ref.text) byText ??= b;
  }
  return byText;
}

/**
 * Whether the value can be there when the call starts: an input value, the initial state, or a
 * write by a call that may still make it (walking back past writers that wrote nothing to the
 * earlier writers whose write theirs would have replaced: their order edges of that path).
 */
function isPresent(plan: CompiledPlan, b: ReadBinding, fateOf: (i: number) => Fate): boolean {
  if (b.ref.root === 'input' || b.kind === 'input' || b.kind === 'initial' || b.kind === 'schema')
    return true;
  if (b.kind === 'unset') return false;
  if (plan.state !== undefined && getAtPath(plan.state, b.path.segments) !== undefined) return true;
  const seen = new Set<number>(b.writers);
  const stack = [...b.writers];
  while (stack.length > 0) {
    const w = stack.pop()!;
    const fate = fateOf(w);
    const call = plan.calls[w]!;
    if (fate === RUNS && writesOver(call, b.path)) return true;
    if (fate === HANDLED && call.errorAlternative !== null) {
      const errorPath = call.outputPath?.paths[call.errorAlternative];
      if (errorPath && overlaps(errorPath, b.path)) return true;
    }
    if (fate === RUNS) continue;
    for (const d of call.dependencies) {
      if (d.kind !== 'order' || d.reason !== undefined || seen.has(d.from)) continue;
      if (!writesOver(plan.calls[d.from]!, b.path)) continue;
      seen.add(d.from);
      stack.push(d.from);
    }
  }
  return false;
}

/** A writer of the read that failed unhandled or was held back: the run marks its paths. */
function isTainted(b: ReadBinding, fateOf: (i: number) => Fate): boolean {
  let failed = false;
  for (const w of b.writers) {
    const fate = fateOf(w);
    if (fate === RUNS) return false;
    if (fate === FAILED || fate === UPSTREAM_FAILED) failed = true;
  }
  return failed;
}

function writesOver(call: CompiledCall, path: Path): boolean {
  return call.outputPath?.paths.some((p) => overlaps(p, path)) ?? false;
}

/** Same root, and one path is the other or lies under it. */
function overlaps(a: Path, b: Path): boolean {
  if (a.root !== b.root) return false;
  const n = Math.min(a.segments.length, b.segments.length);
  for (let s = 0; s < n; s++) if (String(a.segments[s]) !== String(b.segments[s])) return false;
  return true;
}
