/** A call's arguments with every reference replaced by its value, or why the call cannot run. */
import type { CompiledCall } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import { splitPointer } from '../../language/pointer.js';
import type { Reference } from '../../language/reference.js';
import { cloneJson } from '../../language/json/index.js';
import { setOwnProperty } from '../../language/json/index.js';
import { resolveExpression } from '../../language/resolve.js';
import { type SelectionHost, WildcardReads } from './wildcard-reads.js';

/** The references a call needs that have no value: the call does not run. */
export class MissingValues {
  constructor(readonly missing: readonly Reference[]) {}
}

/** What resolving needs of the run: made once per run. */
export interface ArgumentSources {
  /** What references read (the state root brought up to date by the caller). */
  readonly roots: { readonly input: JsonObject; readonly state: JsonObject };
  /** How a value read reaches the call: see RunState.share. */
  readonly share: <T>(value: T) => T;
  /** Per call number, its shape once worked out: from {@link argumentShapes}. */
  readonly shapes: (ArgumentShape | undefined)[];
  /** How a reference is read: `[*]` selections are shared by the reads of one (see wildcard-reads.ts). */
  readonly reads: WildcardReads;
}

/** What resolving needs of a run: its roots and its state, which hands out values read. */
export function argumentSources(
  roots: ArgumentSources['roots'],
  state: SelectionHost,
  calls: readonly CompiledCall[],
): ArgumentSources {
  return {
    roots,
    share: (value) => state.share(value),
    shapes: argumentShapes(calls),
    reads: new WildcardReads(state),
  };
}

/**
 * The call's arguments, resolved, or the references that have no value. The arguments object
 * and the literal values in it are the call's own copies; a value a reference reads comes
 * through `share` (the run's state hands out frozen values, shared by the calls that read them).
 * The result is the arguments object itself (no wrapper): this runs once per call, on the hot path.
 */
export function resolveArguments(call: CompiledCall, sources: ArgumentSources): JsonObject | MissingValues {
  const { roots, share, reads } = sources;
  const shape = (sources.shapes[call.index] ??= shapeOf(call));
  const args = copyArguments(call.args, shape.deep);
  let missing: Reference[] | undefined;
  // Read from the compile's columns: the call's references are never made as objects here.
  const refCount = call.refCount;
  for (let r = 0; r < refCount; r++) {
    const expression = call.refExpression(r);
    let value: unknown;
    if (expression.op === null) {
      // One reference (the common case): no intermediate result object, and for one top-level
      // key (the most common reference) no path walk: the roots are plain objects.
      const ref = expression.refs[0]!;
      const top = shape.tops[r];
      if (top === null) value = reads.read(ref, roots);
      else {
        const base = ref.root === 'input' ? roots.input : roots.state;
        value = Object.hasOwn(base, top!) ? base[top!] : undefined;
      }
      if (value === undefined) (missing ??= []).push(ref);
    } else {
      const resolved = resolveExpression(expression, roots, reads.read);
      if (resolved.exists) value = resolved.value;
      else (missing ??= []).push(...expression.refs);
    }
    if (missing === undefined) {
      const key = shape.keys[r];
      if (key === null) setAt(args, call.refAt(r), share(value));
      else setOwnProperty(args, key!, share(value));
    }
  }
  if (missing) return new MissingValues(missing);
  for (const at of call.literals) setAt(args, at, (getAt(args, at) as string).slice(1));
  return args;
}

/**
 * A deep copy of a literal value, so a tool cannot change the plan through its arguments. The
 * plan holds JSON the limits bound already, so a plain loop copies it (no checks, no recursion).
 */
function copy<T>(value: T): T {
  // Most arguments are strings and numbers: no copy needed.
  return value === null || typeof value !== 'object' ? value : cloneJson(value);
}

/** What resolving a call's arguments needs to know of it, worked out once per compiled call. */
export interface ArgumentShape {
  /** Some literal argument is an object or an array: the copy goes deeper than one level. */
  readonly deep: boolean;
  /** Per reference, the argument it fills when that is a whole top-level one ("/key"), else null. */
  readonly keys: readonly (string | null)[];
  /** Per reference, the key it reads when it is one reference to one top-level key, else null. */
  readonly tops: readonly (string | null)[];
}

const shapesCache = new WeakMap<readonly CompiledCall[], (ArgumentShape | undefined)[]>();

/**
 * The shapes of a plan's calls, by call number: filled in as calls run and shared by every run
 * of the same calls (a compiled plan's, or one stream's).
 */
export function argumentShapes(calls: readonly CompiledCall[]): (ArgumentShape | undefined)[] {
  let shapes = shapesCache.get(calls);
  if (!shapes) {
    shapes = [];
    shapesCache.set(calls, shapes);
  }
  return shapes;
}

function shapeOf(call: CompiledCall): ArgumentShape {
  let deep = false;
  for (const key in call.args) {
    const value = call.args[key];
    if (Object.hasOwn(call.args, key) && value !== null && typeof value === 'object') deep = true;
  }
  // Most references are whole top-level arguments: their key is cut out of the pointer once.
  const count = call.refCount;
  const keys = new Array<string | null>(count);
  const tops = new Array<string | null>(count);
  for (let r = 0; r < count; r++) {
    const at = call.refAt(r);
    keys[r] = at.lastIndexOf('/') === 0 && at.indexOf('~') < 0 ? at.slice(1) : null;
    const expression = call.refExpression(r);
    const segments = expression.op === null ? expression.refs[0]!.segments : [];
    tops[r] = segments.length === 1 && typeof segments[0] === 'string' ? segments[0] : null;
  }
  return { deep, keys, tops };
}

/**
 * The arguments object copied one level (a spread copies own data properties, `__proto__` as a
 * plain key too): only nested objects pay for a deep copy.
 */
function copyArguments(args: JsonObject, deep: boolean): JsonObject {
  const out: JsonObject = { ...args };
  if (deep) {
    for (const key in out) {
      if (Object.hasOwn(out, key)) setOwnProperty(out, key, copy(out[key]));
    }
  }
  return out;
}

function getAt(root: JsonObject, at: string): unknown {
  let current: unknown = root;
  for (const token of splitPointer(at)) current = (current as Record<string, unknown>)[token];
  return current;
}

function setAt(root: JsonObject, at: string, value: unknown): void {
  // Most references are whole top-level arguments: "/key".
  if (at.lastIndexOf('/') === 0 && at.indexOf('~') < 0) return setOwnProperty(root, at.slice(1), value);
  const tokens = splitPointer(at);
  let container: unknown = root;
  for (const token of tokens.slice(0, -1)) container = (container as Record<string, unknown>)[token];
  setOwnProperty(container as JsonObject, tokens[tokens.length - 1]!, value);
}
