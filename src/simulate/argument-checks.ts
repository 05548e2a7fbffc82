/**
 * Resolved arguments against the tool's inputSchema (the check `run` makes before `execute`),
 * with the sampled outputs in place of real ones. Errors compile already reports (literal
 * arguments, E_ARGS) are left out, and so are errors at or inside a value written by a call
 * whose output is unknown. A writer whose schema conflicts with the reader's by type is found
 * in every walk and every seed: every sample of `{type: number}` is a number.
 */
import type { ErrorObject } from 'ajv';
import { ReferenceIndex, withoutBranchNoise } from '../compile/check/index.js';
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import { splitPointer } from '../language/pointer.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ArgumentError } from './types.js';
import { buildArguments } from './call-arguments.js';
import { type ResolvedArgument, SIMULATED_ERROR } from './walk.js';

const START = { line: 1, column: 1 };

export class ArgumentChecker {
  /** Per call, the errors found for each distinct combination of where its values came from. */
  readonly #seen = new Map<number, Map<string, readonly ArgumentError[]>>();

  constructor(
    private readonly plan: CompiledPlan,
    private readonly tools: ToolRegistry | undefined,
    private readonly cache: boolean,
    /** SimulateOptions.applyDefaults: the arguments are checked as the run fills them. */
    private readonly applyDefaults: boolean,
  ) {}

  check(i: number, resolved: readonly ResolvedArgument[]): readonly ArgumentError[] {
    const call = this.plan.calls[i]!;
    const registered = this.tools?.get(call.tool);
    const validate = registered?.validateInput;
    if (!validate) return [];
    // With one walk only (no branching calls) nothing is seen twice: no keys, no cache.
    let key = '';
    if (this.cache) for (const r of resolved) key += `${r.key}|`;
    let byKey = this.cache ? this.#seen.get(i) : undefined;
    const known = byKey?.get(key);
    if (known) return known;
    let args = buildArguments(call, resolved);
    if (this.applyDefaults && registered!.defaults && !call.forEach) args = registered!.defaults.fill(args);
    let errors: ErrorObject[] = [];
    try {
      if (!validate(args)) errors = validate.errors ?? [];
    } catch (e) {
      // A recursive schema can recurse past the stack on deep values (compile says the same).
      if (!(e instanceof RangeError)) throw e;
    }
    const refs = ReferenceIndex.ofCall(call);
    const found = withoutBranchNoise(errors)
      .filter((e) => refs.decides(e))
      .map((e) => this.#toArgumentError(call, e, resolved))
      .filter((e): e is ArgumentError => e !== null);
    if (!this.cache) return found;
    if (!byKey) this.#seen.set(i, (byKey = new Map()));
    byKey.set(key, found);
    return found;
  }

  #toArgumentError(
    call: CompiledCall,
    e: ErrorObject,
    resolved: readonly ResolvedArgument[],
  ): ArgumentError | null {
    const at = e.instancePath;
    // The argument the error is at or inside; else the innermost one inside the error's value.
    const argument =
      resolved.find((r) => at === r.at || at.startsWith(`${r.at}/`)) ??
      resolved.find((r) => r.at.startsWith(`${at}/`));
    if (argument?.unknown) return null;
    const pointer = call.pointer + at;
    // Placed later, all errors of the simulation in one pass (see placeArgumentErrors).
    const position = START;
    const writer = argument && argument.writer >= 0 ? this.plan.calls[argument.writer]! : null;
    return {
      call: call.id,
      tool: call.tool,
      path: at,
      pointer,
      line: position.line,
      column: position.column,
      writer: writer?.id ?? null,
      reference: argument?.ref.text ?? null,
      message: describe(call, e, argument, writer),
    };
  }
}

/** What is wrong, where the value came from, and how to fix it, in one line. */
function describe(
  call: CompiledCall,
  e: ErrorObject,
  argument: ResolvedArgument | undefined,
  writer: CompiledCall | null,
): string {
  const where = e.instancePath === '' ? 'the arguments' : `argument ${e.instancePath}`;
  const what = `${where} of call "${call.id}" (tool "${call.tool}") ${e.message ?? 'is invalid'}`;
  if (!argument) return `${what}: fix the arguments to fit the tool's inputSchema`;
  const value = preview(valueAt(argument.value, argument.at, e.instancePath));
  if (!writer) {
    const root = argument.ref.root === 'input' ? 'the input' : 'the initial state';
    return `${what}, but ${argument.ref.text} from ${root} is ${value}: pass a value that fits`;
  }
  if (isErrorValue(argument.value)) {
    return (
      `${what}, but ${argument.ref.text} is the error object call "${writer.id}" writes when it throws: ` +
      `read its error alternative only where {message, code} fits`
    );
  }
  return (
    `${what}, but ${argument.ref.text} (written by call "${writer.id}", tool "${writer.tool}") is ${value}: ` +
    `make tool "${writer.tool}"'s outputSchema fit tool "${call.tool}"'s inputSchema at ${e.instancePath || '/'}, ` +
    `or read a value of the right type`
  );
}

function isErrorValue(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as Record<string, unknown>).message === SIMULATED_ERROR.message &&
    (value as Record<string, unknown>).code === SIMULATED_ERROR.code
  );
}

/** The part of an argument's value at the error's pointer (the error may be inside it). */
function valueAt(value: unknown, argumentAt: string, errorAt: string): unknown {
  if (!errorAt.startsWith(`${argumentAt}/`)) return value;
  let current = value;
  for (const token of splitPointer(errorAt.slice(argumentAt.length))) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  const typed = `${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value} ${text}`;
  return typed.length > 60 ? `${typed.slice(0, 57)}...` : typed;
}
