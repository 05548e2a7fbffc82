/** A call's arguments in a walk: what `run` would hand its tool, with the walk's values in place. */
import type { CompiledCall } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { cloneJson, setOwnProperty } from '../language/json/index.js';
import { splitPointer } from '../language/pointer.js';
import type { Reference } from '../language/reference.js';

/** One argument's value in a walk, with where it came from. */
export interface ResolvedArgument {
  /** Pointer inside the arguments. */
  readonly at: string;
  readonly value: unknown;
  /** The reference that supplied it. */
  readonly ref: Reference;
  /** The call that wrote it last, or -1 (input, initial state). */
  readonly writer: number;
  /** Written by a call whose output is unknown: not type-checked. */
  readonly unknown: boolean;
  /** What the value depends on in this walk: the same key means the same value. */
  readonly key: string;
}

/** The call's arguments with the walk's values in place of references (and `††` unescaped). */
export function buildArguments(call: CompiledCall, resolved: readonly ResolvedArgument[]): JsonObject {
  // One level copied; a top-level value is cloned only when a reference or literal sits inside it.
  const args: JsonObject = {};
  for (const key of Object.keys(call.args)) setOwnProperty(args, key, call.args[key]);
  const nested = (at: string) => at.lastIndexOf('/') > 0;
  const cloned = new Set<string>();
  for (const at of [...resolved.map((r) => r.at), ...call.literals]) {
    if (!nested(at)) continue;
    const top = splitPointer(at)[0]!;
    if (cloned.has(top)) continue;
    cloned.add(top);
    setOwnProperty(args, top, cloneJson(args[top]));
  }
  for (const r of resolved) setAt(args, r.at, r.value);
  for (const at of call.literals) setAt(args, at, (getAt(args, at) as string).slice(1));
  return args;
}

function getAt(root: JsonObject, at: string): unknown {
  let current: unknown = root;
  for (const token of splitPointer(at)) current = (current as Record<string, unknown>)[token];
  return current;
}

function setAt(root: JsonObject, at: string, value: unknown): void {
  const tokens = splitPointer(at);
  let container = root as Record<string, unknown>;
  for (const token of tokens.slice(0, -1)) container = container[token] as Record<string, unknown>;
  setOwnProperty(container, tokens[tokens.length - 1]!, value);
}
