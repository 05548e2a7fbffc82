/**
 * Which branching calls must be enumerated together.
 *
 * A plan with 20 independent yes/no branches has 2^20 combinations, but each branch only
 * decides what runs in its own arms: listing every combination says nothing the 21 scenarios
 * "all first alternatives, then each branch flipped alone" do not. So branching calls are put
 * in groups, and only combinations inside a group are walked.
 *
 * Each call gets a run condition, built in one pass over the topological order (no recursion):
 * `always` (it runs whatever is chosen), `choice(b, alternatives)` (it runs when branching call
 * b takes one of these), or `opaque` (it depends on a group in a way not tracked further). An
 * argument's condition is the AND of its references' (OR for a `||` join); a reference's is
 * the OR of its writers' (any of them writing makes it exist). So the join after a branch,
 * reading both arms (or the two calls that write one path from different arms), runs when
 * the branch runs, whatever it chooses, and what comes after it is independent of the choice.
 * Branching calls share a group when
 *
 * - a condition needs two of them at once (AND of different branches, an OR that does not
 *   cover every alternative): a branch inside a branch's arm, a call reading two arms;
 * - one argument's value comes from several of them (a join reading from both);
 * - a call whose running depends on one branch reads a value another one chooses.
 *
 * Calls in different groups never depend on the same choices, so any cross-group combination
 * is the union of the listed one-group scenarios. (An inputSchema keyword that ties two
 * arguments together, like `dependentRequired`, is the one thing this can miss.)
 *
 * A workflow call whose plan branches (`chooses`) is grouped as a branching call is: its
 * output depends on the choices made inside it, which are enumerated with its group (see
 * scenario-decisions.ts). It writes its one path whatever is chosen, so it never makes its
 * readers conditional; a reader that runs only in some branch's arm and reads it, or a join
 * reading it and a branch, puts it in that branch's group.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import { coveredPath, pathsOverlap } from '../language/paths.js';
import { forEachSource, writersOf } from './value-sources.js';

/** 0: always; 1: when branch `b` takes an alternative in `mask`; 2: opaque, in `b`'s group. */
interface Condition {
  readonly kind: 0 | 1 | 2;
  readonly b: number;
  readonly mask: number;
}

const ALWAYS: Condition = { kind: 0, b: -1, mask: 0 };
/** Alternatives are tracked in a 30-bit mask; a call with more is opaque to its readers. */
const MAX_TRACKED = 30;

export interface BranchGroups {
  /** Per call: its number of `||` alternatives when it is a branching call (2 or more), else 0. */
  readonly alternatives: Int32Array;
  /**
   * The groups: branching calls' indices (and those of workflow calls whose plan branches),
   * each group in array order, groups by first member.
   */
  readonly groups: readonly (readonly number[])[];
  /** Per call: the index of its group in `groups`, or -1 (not a branching call, nor a workflow call that branches). */
  readonly groupOf: Int32Array;
}

export function alternativesOf(call: CompiledCall): number {
  const output = call.outputPath;
  return output?.op === '||' && output.paths.length >= 2 ? output.paths.length : 0;
}

/**
 * `chooses`: per call, 1 when it calls a workflow whose plan branches (its output depends on
 * choices made inside it); null when no call does.
 */
export function branchGroups(plan: CompiledPlan, chooses: Uint8Array | null = null): BranchGroups {
  const n = plan.calls.length;
  const alternatives = new Int32Array(n);
  let any = false;
  for (let i = 0; i < n; i++) {
    alternatives[i] = alternativesOf(plan.calls[i]!);
    if (alternatives[i]! > 0 || chooses?.[i] === 1) any = true;
  }
  const groupOf = new Int32Array(n).fill(-1);
  if (!any) return { alternatives, groups: [], groupOf };

  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    let root = x;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[x] !== root) {
      const next = parent[x]!;
      parent[x] = root;
      x = next;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    // The earlier call is the root, so a group's root is its first member.
    if (ra !== rb) {
      if (ra < rb) parent[rb] = ra;
      else parent[ra] = rb;
    }
  };

  const full = (b: number) => (1 << alternatives[b]!) - 1;
  const opaque = (...conditions: Condition[]): Condition => {
    let first = -1;
    for (const c of conditions) {
      if (c.kind === 0) continue;
      if (first < 0) first = c.b;
      else union(first, c.b);
    }
    return first < 0 ? ALWAYS : { kind: 2, b: first, mask: 0 };
  };
  const and = (x: Condition, y: Condition): Condition => {
    if (x.kind === 0) return y;
    if (y.kind === 0) return x;
    if (x.kind === 1 && y.kind === 1 && x.b === y.b) return { kind: 1, b: x.b, mask: x.mask & y.mask };
    return opaque(x, y);
  };
  const or = (x: Condition, y: Condition): Condition => {
    if (x.kind === 0 || y.kind === 0) return ALWAYS;
    if (x.kind === 1 && y.kind === 1 && x.b === y.b) {
      const mask = x.mask | y.mask;
      // Every alternative: it runs whenever the branching call does.
      return mask === full(x.b) ? conditions[x.b]! : { kind: 1, b: x.b, mask };
    }
    return opaque(x, y);
  };

  const conditions: Condition[] = new Array<Condition>(n).fill(ALWAYS);
  const chooser: number[] = [];
  const choosers: number[] = [];
  for (const c of plan.order) {
    const call = plan.calls[c]!;
    let condition = ALWAYS;
    choosers.length = 0;
    for (let k = 0; k < call.refCount; k++) {
      const expression = call.refExpression(k);
      const join = expression.op === '||' && expression.refs.length > 1;
      let argumentCondition: Condition | null = null;
      let sources = 0;
      chooser.length = 0;
      for (const ref of expression.refs) {
        const writers = writersOf(call, ref);
        const path = coveredPath(ref);
        let refCondition: Condition | null = writers.length === 0 ? ALWAYS : null;
        let source = ALWAYS;
        forEachSource(
          plan,
          writers,
          path,
          () => source.kind === 0,
          (w) => {
            sources++;
            source = conditions[w]!;
            const count = alternatives[w]!;
            if (count > 0) {
              chooser.push(w);
              const paths = plan.calls[w]!.outputPath!.paths;
              let mask = 0;
              for (let k = 0; k < count; k++) if (pathsOverlap(paths[k]!, path)) mask |= 1 << k;
              if (count > MAX_TRACKED) source = opaque(source, { kind: 2, b: w, mask: 0 });
              else if (mask !== full(w)) source = and(source, { kind: 1, b: w, mask });
            } else if (source.kind !== 0) chooser.push(source.b);
            // Its value is chosen inside the workflow: a reader depends on that choice.
            if (chooses?.[w] === 1) chooser.push(w);
            refCondition = refCondition ? or(refCondition, source) : source;
          },
        );
        argumentCondition = !argumentCondition
          ? refCondition!
          : join
            ? or(argumentCondition, refCondition!)
            : and(argumentCondition, refCondition!);
      }
      // A join reading from two branching calls: its value depends on both choices.
      if (sources > 1) for (let k = 1; k < chooser.length; k++) union(chooser[0]!, chooser[k]!);
      for (const w of chooser) choosers.push(w);
      condition = and(condition, argumentCondition ?? ALWAYS);
    }
    conditions[c] = condition;
    if (condition.kind === 0) continue;
    // Running depends on one group: what its arguments read, and whether it branches itself,
    // must be enumerated with that group, or a value it reads is never checked.
    for (const w of choosers) union(condition.b, w);
    if (alternatives[c]! > 0 || chooses?.[c] === 1) union(condition.b, c);
  }

  const groups: number[][] = [];
  const index = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (alternatives[i] === 0 && chooses?.[i] !== 1) continue;
    const root = find(i);
    let g = index.get(root);
    if (g === undefined) {
      g = groups.length;
      index.set(root, g);
      groups.push([]);
    }
    groups[g]!.push(i);
    groupOf[i] = g;
  }
  return { alternatives, groups, groupOf };
}
