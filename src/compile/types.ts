/** The compiled form of a plan: what the executor, the simulator and the pictures consume. */
import type { Diagnostic } from '../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../language/document.js';
import type { Path } from '../language/paths.js';
import type { LoopReference } from '../language/loop-reference.js';
import type { Expression, Reference } from '../language/reference.js';
import type { ToolRegistry } from '../tools/registry.js';

/** A reference expression inside a call's arguments. */
export interface ArgumentReference {
  /** JSON pointer inside the arguments object (`/amount`, `/filter/0/id`). */
  readonly at: string;
  readonly expression: Expression;
  /** The string as written. */
  readonly text: string;
}

/**
 * How a read was bound, in this order of preference: to calls before it, to the initial state
 * or input, to calls after it (a forward reference), or to nothing but a state-schema
 * declaration. `unset`: an alternative of a `||` read that nothing can ever set, beside one
 * that can (W_UNRESOLVED_ALTERNATIVE): it is never there, and the read takes the others.
 */
export type BindingKind = 'earlier' | 'initial' | 'later' | 'schema' | 'input' | 'unset';

export interface ReadBinding {
  readonly ref: Reference;
  /** JSON pointer (inside the call's arguments) of the string holding the reference. */
  readonly at: string;
  /** The path the read covers in the graph: the reference's path up to its first `[*]`. */
  readonly path: Path;
  readonly kind: BindingKind;
  /** Indices of the calls the read depends on for its value. */
  readonly writers: readonly number[];
}

export interface OutputPath {
  /** `||` alternatives, `&&` fan-out, or null for one path. */
  readonly op: '||' | '&&' | null;
  /** The paths written, one per alternative (or per fan-out target). */
  readonly paths: readonly Path[];
  /** The same paths as written, with their offsets in `text`. */
  readonly refs: readonly Reference[];
  readonly text: string;
}

export type DependencyKind = 'data' | 'order';

/**
 * Why an order edge that no state path makes is there: `effect`, program order around a call
 * that has effects (it waits for every earlier call, and every later call waits for it);
 * `after`, the call's `_after` names the call depended on.
 */
export type OrderReason = 'effect' | 'after';

/** An edge into a call: `from` must end before the call starts. */
export interface Dependency {
  /** Index of the call depended on. */
  readonly from: number;
  /**
   * `data`: a read bound to a write; `order`: write after write, write after read, or (with a
   * `reason`) program order.
   */
  readonly kind: DependencyKind;
  /** The state path that creates the edge, as written in the plan; `''` for program order. */
  readonly path: string;
  /**
   * Set on the order edges no state path makes (then `path` is `''`): see {@link OrderReason}.
   * Absent on every other edge. Such an edge is not only timing: the call does not start when
   * the call it follows failed unhandled (it ends `upstream_failed`).
   */
  readonly reason?: OrderReason;
}

/**
 * Where a `_forEach` call's array reference sits among its references: it is read, bound and
 * typed as an argument at this pointer (which is also where `_forEach` is in the call object),
 * and taken out of the arguments before the tool runs.
 */
export const FOR_EACH_POINTER = '/_forEach';

/** An argument of a `_forEach` call that is `†item...` or `†index`, filled in per element. */
export interface LoopArgument {
  /** JSON pointer inside the arguments object. */
  readonly at: string;
  readonly ref: LoopReference;
}

/** What `_forEach` makes of a call: its tool runs once per element of an array. */
export interface ForEachCall {
  /** The `_forEach` reference as written (`†state.results`). */
  readonly text: string;
  /** The arguments that are `†item...` or `†index`, in the order found. */
  readonly loopArguments: readonly LoopArgument[];
}

export interface CompiledCall {
  /** 0-based position in the plan array. */
  readonly index: number;
  /** `_id`, or the index as a string. */
  readonly id: string;
  readonly tool: string;
  /** Pointer to the call object in the document. */
  readonly pointer: string;
  /** Arguments as written, without meta keys; references still unresolved. */
  readonly args: JsonObject;
  /** The reference arguments, in the order found (made the first time they are read). */
  readonly refs: readonly ArgumentReference[];
  /** @internal `refs.length`, without making `refs`: what the compiler and the executor read. */
  readonly refCount: number;
  /** @internal `refs[k].at`, without making `refs`. */
  refAt(k: number): string;
  /** @internal `refs[k].expression`, without making `refs`. */
  refExpression(k: number): Expression;
  /** Pointers (inside args) of `††` literal strings, which lose one leading † at run time. */
  readonly literals: readonly string[];
  readonly outputPath: OutputPath | null;
  /**
   * The index of the `||` alternative of `outputPath` that receives the tool's own error
   * (`{message, code?}`) when it throws, or null when none is declared (a throw then fails the
   * call). Declared by the plan's `_onError` (any alternative), else by the tool's `errorBranch:
   * true` (the last of two or more), as known to the compile's tools.
   */
  readonly errorAlternative: number | null;
  /** True when the call carries `_output` (a latent result the model wrote itself). */
  readonly hasOutput: boolean;
  readonly output?: unknown;
  readonly reads: readonly ReadBinding[];
  readonly dependencies: readonly Dependency[];
  /**
   * Set when the call carries `_forEach`: its array is the reference at {@link FOR_EACH_POINTER}
   * among `refs`, and the tool runs once per element. Absent or null otherwise.
   */
  readonly forEach?: ForEachCall | null;
}

export interface CompiledPlan {
  readonly mode: ExecutionMode;
  /** Every call, in array order. */
  readonly calls: readonly CompiledCall[];
  /** A topological order (call indices); ties keep array order. */
  readonly order: readonly number[];
  /** `levels[i]` is call i's depth: 0 for calls without dependencies. */
  readonly levels: readonly number[];
  /** The longest chain of dependent calls (indices), first to last. */
  readonly criticalPath: readonly number[];
  readonly edgeCount: number;
  readonly input?: JsonObject;
  readonly state?: JsonObject;
  readonly stateSchema?: JsonObject;
  /**
   * What the final answer of the loop must match, from a request document's `schema` (its
   * `properties.output` when it describes the whole reply); the schema is checked to be a
   * usable JSON Schema (E_OUTPUT_SCHEMA).
   * A run has no answer, so run() keeps it here for the caller and checks nothing against it.
   */
  readonly outputSchema?: JsonObject | boolean;
  readonly tools?: ToolRegistry;
  /** Warnings found while compiling (a compiled plan has no errors). */
  readonly diagnostics: readonly Diagnostic[];
  /** Index of the call with this id. */
  indexOf(id: string): number | undefined;
}
