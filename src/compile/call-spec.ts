/**
 * A call after its own checks, and then (the same object, no copy per call) the compiled call.
 * Its reads and dependencies live in the data flow's columns and become objects only when
 * someone asks for them: the executor never does, a report or a dry run does.
 */
import type { JsonObject } from '../language/document.js';
import type { Reference } from '../language/reference.js';
import type { FlowColumns } from './flow-columns.js';
import { callPointer } from './call-pointer.js';
import type { ArgumentReference, CompiledCall, Dependency, OutputPath, ReadBinding } from './types.js';

const NO_READS: readonly ReadBinding[] = Object.freeze([]);
const NO_DEPENDENCIES: readonly Dependency[] = Object.freeze([]);
const NO_WRITERS: readonly number[] = Object.freeze([]);

export class CallSpec implements Omit<CompiledCall, 'tool'> {
  #flow: FlowColumns | null = null;
  #reads: readonly ReadBinding[] | undefined = undefined;
  #dependencies: readonly Dependency[] | undefined = undefined;
  /** `_id`, or once asked for, the index as a string (not made for every call of a large plan). */
  #id: string | undefined;
  readonly #callsPointer: string;

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
    readonly refs: readonly ArgumentReference[],
    /** Pointers (inside args) of `††` literal strings. */
    readonly literals: readonly string[],
    readonly outputPath: OutputPath | null,
    /** True when the call carries `_output`. */
    readonly hasOutput: boolean,
    readonly output: unknown,
  ) {
    this.#id = explicitId;
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
