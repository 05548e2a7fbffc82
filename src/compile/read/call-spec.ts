/**
 * A call after its own checks, and then (the same object, no copy per call) the compiled call.
 * Its reference arguments, reads and dependencies live in columns and become objects only when
 * someone asks for them: the compiler and the executor never do, a report or a dry run does.
 */
import type { JsonObject } from '../../language/document.js';
import type { Expression, Reference } from '../../language/reference.js';
import type { ArgumentColumns, FlowColumns } from '../storage/index.js';
import { callPointer } from './call-pointer.js';
import type {
  ArgumentReference,
  CompiledCall,
  Dependency,
  ForEachCall,
  OutputPath,
  ReadBinding,
} from '../types.js';

const NO_READS: readonly ReadBinding[] = Object.freeze([]);
const NO_DEPENDENCIES: readonly Dependency[] = Object.freeze([]);
const NO_WRITERS: readonly number[] = Object.freeze([]);
const NO_REFS: readonly ArgumentReference[] = Object.freeze([]);

export class CallSpec implements Omit<CompiledCall, 'tool'> {
  #flow: FlowColumns | null = null;
  #reads: readonly ReadBinding[] | undefined = undefined;
  #dependencies: readonly Dependency[] | undefined = undefined;
  #refs: readonly ArgumentReference[] | undefined = undefined;
  // Private fields, as #flow: a call's own enumerable keys are what the API documents.
  readonly #columns: ArgumentColumns | null;
  readonly #refStart: number;
  readonly #refCount: number;
  /** `_id`, or once asked for, the index as a string (not made for every call of a large plan). */
  #id: string | undefined;
  readonly #callsPointer: string;
  /** See CompiledCall.errorAlternative: set from `_onError` when read, else from the tool when checked. */
  errorAlternative: number | null = null;
  /** See CompiledCall.forEach: set from `_forEach` when read. */
  forEach: ForEachCall | null = null;

  // Positional, not an options object: one is made per call of plans of 100k calls.
  constructor(
    readonly index: number,
    /** `_id`, or undefined when the call has none (its id is then its index). */
    explicitId: string | undefined,
    /** The tool name, or null when `_tool` is missing or not a string. */
    readonly tool: string | null,
    /** Pointer to the calls array in the document (`''` when the document is the array). */
    callsPointer: string,
    /** Arguments as written, without meta keys; references still unresolved. */
    readonly args: JsonObject,
    /** Where the call's references are kept (null when it has none). */
    columns: ArgumentColumns | null,
    /** Where its run of references starts in `columns`. */
    refStart: number,
    /** How many references it has. */
    refCount: number,
    /** Pointers (inside args) of `††` literal strings. */
    readonly literals: readonly string[],
    readonly outputPath: OutputPath | null,
    /** True when the call carries `_output`. */
    readonly hasOutput: boolean,
    readonly output: unknown,
  ) {
    this.#id = explicitId;
    this.#columns = columns;
    this.#refStart = refStart;
    this.#refCount = refCount;
    this.#callsPointer = callsPointer;
  }

  /** `_id`, or the index as a string. */
  get id(): string {
    return (this.#id ??= String(this.index));
  }

  /**
   * Pointer to the call object in the document, made when asked for: mostly by diagnostics,
   * which a plan without mistakes has none of.
   */
  get pointer(): string {
    return callPointer(this.#callsPointer, this.index);
  }

  /** The call's reference arguments, in the order found; made the first time they are asked for. */
  get refs(): readonly ArgumentReference[] {
    return (this.#refs ??= this.#columns ? this.#columns.objects(this.#refStart, this.#refCount) : NO_REFS);
  }

  /** @internal How many references it has: `refs.length`, without making `refs`. */
  get refCount(): number {
    return this.#refCount;
  }

  /** @internal Reference k's pointer inside the arguments (`refs[k].at` without making `refs`). */
  refAt(k: number): string {
    return this.#columns!.at(this.#refStart + k);
  }

  /** @internal Reference k's expression (`refs[k].expression` without making `refs`). */
  refExpression(k: number): Expression {
    return this.#columns!.expression(this.#refStart + k);
  }

  /** @internal True when some reference of the plan so far reads state below its first segment. */
  get planReadsBelowFirstSegment(): boolean {
    return this.#columns?.readsBelowFirstSegment ?? false;
  }

  /** @internal Reference k's string as written (`refs[k].text` without making `refs`). */
  refText(k: number): string {
    return this.#columns!.text(this.#refStart + k);
  }

  /** How the call's references were bound; empty until the data flow has seen the call. */
  get reads(): readonly ReadBinding[] {
    if (this.#reads === undefined) this.#reads = this.#flow ? this.#flow.readsOf(this.index) : NO_READS;
    return this.#reads;
  }

  /** The calls this one waits for; empty until the data flow has seen the call. */
  get dependencies(): readonly Dependency[] {
    if (this.#dependencies === undefined)
      this.#dependencies = this.#flow ? this.#flow.dependenciesOf(this.index) : NO_DEPENDENCIES;
    return this.#dependencies;
  }

  /**
   * @internal The writers this call's read of `ref` was bound to (what `reads` says of it),
   * without making the call's reads as objects; empty when it does not read `ref`.
   */
  writersOf(ref: Reference): readonly number[] {
    return this.#flow ? this.#flow.writersOfRef(this.index, ref) : NO_WRITERS;
  }

  /** @internal The data flow that binds the call keeps its reads and dependencies here. */
  bindTo(flow: FlowColumns): void {
    this.#flow = flow;
    this.forget();
  }

  /** @internal The data flow changed what the lists would hold (a forward reference bound). */
  forget(): void {
    this.#reads = undefined;
    this.#dependencies = undefined;
  }
}
