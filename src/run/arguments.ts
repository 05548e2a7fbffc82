/** A call's arguments with every reference replaced by its value (SPEC 6). */
import type { CompiledCall } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { splitPointer } from '../language/pointer.js';
import type { Reference } from '../language/reference.js';
import { type Roots, resolveExpression } from '../language/resolve.js';

export type ResolvedArguments =
  | { readonly ok: true; readonly args: JsonObject }
  | { readonly ok: false; readonly missing: readonly Reference[] };

export function resolveArguments(call: CompiledCall, roots: Roots): ResolvedArguments {
  if (call.refs.length === 0 && call.literals.length === 0) return { ok: true, args: copy(call.args) };
  let missing: Reference[] | undefined;
  const values: unknown[] = [];
  for (const argument of call.refs) {
    const resolved = resolveExpression(argument.expression, roots);
    if (!resolved.exists) (missing ??= []).push(...argument.expression.refs);
    else values.push(resolved.value);
  }
  if (missing) return { ok: false, missing };
  const args = copy(call.args);
  call.refs.forEach((argument, k) => setAt(args, argument.at, copy(values[k])));
  for (const at of call.literals) setAt(args, at, (getAt(args, at) as string).slice(1));
  return { ok: true, args };
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

function getAt(root: JsonObject, at: string): unknown {
  let current: unknown = root;
  for (const token of splitPointer(at)) current = (current as Record<string, unknown>)[token];
  return current;
}

function setAt(root: JsonObject, at: string, value: unknown): void {
  const tokens = splitPointer(at);
  let container: unknown = root;
  for (const token of tokens.slice(0, -1)) container = (container as Record<string, unknown>)[token];
  Object.defineProperty(container, tokens[tokens.length - 1]!, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
