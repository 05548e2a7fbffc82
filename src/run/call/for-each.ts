/**
 * A `_forEach` call at run time: the call's tool wrapped in a tool that runs the real one once
 * per element of the array, at most `concurrency` elements at once, and answers the array of
 * their results in element order. Everything around the call (its start and end events, the
 * answer's copy and write, `||` error alternatives, the journal of its result) is the ordinary
 * call's: the wrapper is what its one attempt runs.
 *
 * Each element has the real tool's own argument check, timeout, retries and output check. The
 * first element that fails (after its retries) fails the call: no element starts after it, the
 * running ones are waited for, and the call fails with that element's error as the tool gave
 * it (so a declared error alternative receives it, as for any throw of the tool). Per element,
 * its status and error are kept in the call's record (`elements`).
 */
import type { CompiledCall, LoopArgument } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import { cloneJson, setOwnProperty } from '../../language/json/index.js';
import { resolveLoopReference } from '../../language/loop-reference.js';
import { SelectionLimitError } from '../../language/run-selection.js';
import { splitPointer } from '../../language/pointer.js';
import { describeValue } from '../../language/describe-value.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolContext } from '../../tools/tool.js';
import { ToolTimeoutError } from '../../errors.js';
import type { CallRecord } from '../call-record.js';
import { retriesOf, retryDelay, sleep } from '../retry.js';
import type { RunEventDraft } from '../run-event.js';
import { describeSchemaErrors } from '../schema-errors.js';
import type { CallError, ElementReport, ParentRun, RunOptions } from '../types.js';
import type { JournalParts, RunJournal } from '../journal/index.js';
import { parentRunFor } from './journal-parent.js';
import type { ToolErrorCode, ToolExecutionError } from '../../errors.js';
import { toCallError } from './call-error.js';
import { contractError, endsAttempts } from './error-origin.js';
import { isEndLoopSignal } from '../../tools/end-loop.js';

type Registered = NonNullable<ReturnType<ToolRegistry['get']>>;

/** What running a call's elements needs of the run (the Runner is one). */
export interface ForEachHost {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly tools: ToolRegistry;
  readonly options: RunOptions;
  readonly concurrency: number;
  readonly listening: boolean;
  readonly limits: Limits;
  /** Where elements are journaled (its `parts`), and where a workflow element's sub-run is. */
  readonly journal: RunJournal | undefined;
  readonly asParent: ParentRun;
  event(event: RunEventDraft): void;
  failure(i: number, message: string, code: ToolErrorCode): ToolExecutionError;
}

/** The tool call i's attempts run: its own, or for a `_forEach` call, the loop over it. */
export function registeredFor(run: ForEachHost, i: number): Registered | undefined {
  const call = run.calls[i]!;
  const registered = run.tools.get(call.tool);
  return call.forEach && registered ? forEachTool(run, i, registered) : registered;
}

/** The tool a `_forEach` call's attempt runs: the real one, once per element. */
function forEachTool(run: ForEachHost, i: number, real: Registered): Registered {
  const tool: Tool = {
    ...real.tool,
    inputSchema: undefined,
    outputSchema: undefined,
    // Per element, not for the whole call: see runElement.
    timeoutMs: 0,
    retries: 0,
    branchJson: false,
    latent: false,
    execute: (args: JsonObject, context: ToolContext) => runElements(run, i, real, args, context),
  };
  return { ...real, tool, validateInput: null, validateOutput: null };
}

/** Runs the call's elements; their results in order, synchronously when every element answered so. */
function runElements(
  run: ForEachHost,
  i: number,
  real: Registered,
  args: JsonObject,
  context: ToolContext,
): unknown[] | Promise<unknown[]> {
  const call = run.calls[i]!;
  const forEach = call.forEach!;
  const array = args._forEach;
  delete args._forEach;
  if (!Array.isArray(array)) {
    throw run.failure(
      i,
      `_forEach ${forEach.text} must be an array, but it holds ${describeValue(array)}`,
      'INVALID_ARGUMENTS',
    );
  }
  const { maxForEach } = run.limits;
  if (array.length > maxForEach) {
    throw run.failure(
      i,
      `_forEach ${forEach.text} has ${array.length} elements; the limit is ${maxForEach} (raise limits.maxForEach, or --limit maxForEach=N)`,
      'LIMIT',
    );
  }
  const loop = new ElementLoop(run, i, real, args, context, array);
  return loop.start();
}

class ElementLoop {
  readonly #results: unknown[];
  readonly #elements: ElementReport[];
  readonly #lanes: number;
  /** Where elements are journaled; undefined when they are not (the call resumes whole). */
  readonly #parts: JournalParts | undefined;
  /** The template of every element's ToolContext (see #execute). */
  #elementContext: ToolContext | undefined;
  readonly #id: string;
  #next = 0;
  #running = 0;
  #failed: { error: unknown } | null = null;
  /** When each element started, kept only while someone listens (for `call:element`'s durationMs). */
  readonly #startedAt: number[] | null;
  #settle: { resolve: (v: unknown[]) => void; reject: (e: unknown) => void } | null = null;

  constructor(
    private readonly run: ForEachHost,
    private readonly i: number,
    private readonly real: Registered,
    private readonly args: JsonObject,
    private readonly context: ToolContext,
    private readonly array: readonly unknown[],
  ) {
    this.#results = new Array<unknown>(array.length);
    this.#elements = new Array<ElementReport>(array.length);
    for (let k = 0; k < array.length; k++) this.#elements[k] = { status: 'not_run', error: null };
    run.records[i]!.elements = this.#elements;
    this.#parts = run.journal?.parts;
    this.#id = run.calls[i]!.id;
    this.#startedAt = run.listening ? new Array<number>(array.length) : null;
    this.#lanes = Math.max(1, Math.min(run.concurrency, array.length));
  }

  start(): unknown[] | Promise<unknown[]> {
    this.#pump();
    if (this.#running === 0) return this.#outcome();
    return new Promise<unknown[]>((resolve, reject) => (this.#settle = { resolve, reject }));
  }

  /** Starts elements while a lane is free; an element that answers at once frees its lane at once. */
  #pump(): void {
    while (this.#failed === null && this.#next < this.array.length && this.#running < this.#lanes) {
      const k = this.#next++;
      if (this.#parts !== undefined && this.#reused(k, this.#parts)) continue;
      if (this.#startedAt) this.#startedAt[k] = Date.now();
      let answer: unknown;
      try {
        this.#parts?.elementStarted(this.#id, k, this.array.length);
        answer = this.#attempt(k, 1);
      } catch (error) {
        this.#fail(k, error);
        continue;
      }
      if (isThenable(answer)) {
        this.#running++;
        answer.then(
          (value) => this.#asyncEnd(() => this.#succeed(k, value)),
          (error: unknown) => this.#asyncEnd(() => this.#fail(k, error)),
        );
      } else this.#succeed(k, answer);
    }
  }

  #asyncEnd(step: () => void): void {
    this.#running--;
    step();
    this.#pump();
    if (this.#running === 0 && this.#settle) {
      const { resolve, reject } = this.#settle;
      this.#settle = null;
      try {
        resolve(this.#outcome());
      } catch (e) {
        reject(e);
      }
    }
  }

  /**
   * Element k's result put back from the journal, when an earlier run of the call finished it
   * (with an output its tool's outputSchema still accepts): true, and it does not run.
   */
  #reused(k: number, parts: JournalParts): boolean {
    const earlier = parts.elementOutput(this.#id, k, this.array.length);
    if (earlier === undefined) return false;
    try {
      this.#checked(k, earlier.output);
    } catch {
      return false;
    }
    this.#results[k] = earlier.output;
    this.#elements[k] = { status: 'succeeded', error: null };
    this.#report(k, 'succeeded', null);
    return true;
  }

  /** The results, or the first failure thrown: once no element runs any more. */
  #outcome(): unknown[] {
    if (this.#failed) throw this.#failed.error;
    return this.#results;
  }

  /** Element k's attempt `attempt`, then its retries: its checked result, or a thenable of it. */
  #attempt(k: number, attempt: number): unknown {
    const { run, i, real } = this;
    const tool = real.tool;
    let elementArgs: JsonObject;
    try {
      elementArgs = argumentsFor(this.args, run.calls[i]!.forEach!.loopArguments, this.array[k], k);
      // Per element, once `†item` is in: an item may bring an object whose defaults are filled.
      if (real.defaults && run.options.applyDefaults !== false) elementArgs = real.defaults.fill(elementArgs);
    } catch (e) {
      // A selection in a †item path past its budget (run-selection.ts): planmode's failure, not the tool's.
      if (e instanceof SelectionLimitError) throw run.failure(i, `element ${k}: ${e.message}`, 'LIMIT');
      throw e;
    }
    if (real.validateInput && !real.validateInput(elementArgs)) {
      throw run.failure(
        i,
        `element ${k}: ${describeSchemaErrors('arguments', real.validateInput.errors)}`,
        'INVALID_ARGUMENTS',
      );
    }
    const retries = retriesOf(tool);
    const retry = (error: unknown): unknown => {
      if (attempt > retries.limit || this.context.abortSignal.aborted || endsAttempts(error)) throw error;
      return sleep(retryDelay(retries, attempt), this.context.abortSignal).then(() =>
        this.#attempt(k, attempt + 1),
      );
    };
    let answer: unknown;
    try {
      answer = this.#execute(k, elementArgs);
    } catch (error) {
      return retry(error);
    }
    if (!isThenable(answer)) return this.#checked(k, answer);
    return Promise.resolve(answer).then((value) => this.#checked(k, value), retry);
  }

  #execute(k: number, elementArgs: JsonObject): unknown {
    const { run, i, real } = this;
    const call = run.calls[i]!;
    const execute = real.tool.execute;
    if (typeof execute !== 'function')
      throw run.failure(i, `tool "${real.tool.name}" has no execute function`, 'NOT_EXECUTABLE');
    const timeoutMs = real.tool.timeoutMs ?? run.options.timeoutMs ?? 0;
    // A copy of one template made per call: every element's context has the same shape, so the
    // copy is a fast clone (a spread that added keys per element made a for-each of no-op
    // elements ~2x slower). The run changes only when the journal records parts.
    this.#elementContext ??= { ...this.context, toolCallId: '', element: 0 };
    const context: MutableContext = { ...this.#elementContext };
    context.toolCallId = `${call.id}[${k}]`;
    context.element = k;
    if (this.#parts !== undefined) context.run = parentRunFor(run, real.tool, [call.id, k]);
    if (timeoutMs <= 0) return execute(elementArgs, context);
    const controller = new AbortController();
    const signal = AbortSignal.any([this.context.abortSignal, controller.signal]);
    const pending = execute(elementArgs, { ...context, abortSignal: signal });
    if (!isThenable(pending)) return pending;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = contractError(new ToolTimeoutError(timeoutMs, { call: call.id, tool: call.tool }));
        controller.abort(error);
        reject(error);
      }, timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  #checked(k: number, value: unknown): unknown {
    if (isEndLoopSignal(value)) throw value; // as thrown: the element's decision ends the loop
    const { validateOutput } = this.real;
    if (validateOutput && !validateOutput(value)) {
      throw this.run.failure(
        this.i,
        `element ${k}: ${describeSchemaErrors('output', validateOutput.errors)}`,
        'INVALID_OUTPUT',
      );
    }
    return value;
  }

  #succeed(k: number, value: unknown): void {
    this.#results[k] = value;
    this.#elements[k] = { status: 'succeeded', error: null };
    // On disk before anyone hears of it.
    this.#journalEnd(k, { status: 'succeeded', error: null, output: value });
    this.#report(k, 'succeeded', null);
  }

  #fail(k: number, error: unknown): void {
    const callError = toCallError(error);
    this.#elements[k] = { status: 'failed', error: callError };
    this.#failed ??= { error };
    this.#journalEnd(k, { status: 'failed', error: callError });
    this.#report(k, 'failed', callError);
  }

  /** The element's end into the journal; a journal that cannot take it fails the call. */
  #journalEnd(k: number, ended: Parameters<JournalParts['elementEnded']>[3]): void {
    try {
      this.#parts?.elementEnded(this.#id, k, this.array.length, ended);
    } catch (error) {
      this.#failed ??= { error };
    }
  }

  #report(k: number, status: 'succeeded' | 'failed', error: CallError | null): void {
    const { run, i } = this;
    if (!run.listening) return;
    const call = run.calls[i]!;
    // An element taken back from the journal on a resume did not run here: it took no time.
    const started = this.#startedAt?.[k];
    const durationMs = started === undefined ? 0 : Date.now() - started;
    run.event({ type: 'call:element', call: call.id, tool: call.tool, index: k, status, error, durationMs });
  }
}

/** A ToolContext being filled in for one element. */
type MutableContext = { -readonly [K in keyof ToolContext]: ToolContext[K] };

/**
 * For the approval of a `_forEach` call (asked once for the whole call): the arguments each
 * element will run with, or undefined when `_forEach` is not an array within the limit (the
 * call then fails as it starts, as runElements says).
 */
export function elementArguments(
  run: Pick<ForEachHost, 'calls' | 'limits' | 'tools' | 'options'>,
  i: number,
  args: JsonObject,
): JsonObject[] | undefined {
  const array = args._forEach;
  if (!Array.isArray(array) || array.length > run.limits.maxForEach) return undefined;
  const { loopArguments } = run.calls[i]!.forEach!;
  const withoutLoop: JsonObject = { ...args };
  delete withoutLoop._forEach;
  // With the defaults each element will run with, as the elements' own attempts fill them.
  const defaults = run.options.applyDefaults === false ? null : run.tools.get(run.calls[i]!.tool)?.defaults;
  return array.map((item, k) => {
    const elementArgs = argumentsFor(withoutLoop, loopArguments, item, k);
    return defaults ? defaults.fill(elementArgs) : elementArgs;
  });
}

/** The call's arguments for element `item` at `index`: a copy with its loop arguments filled in. */
function argumentsFor(
  args: JsonObject,
  loopArguments: readonly LoopArgument[],
  item: unknown,
  index: number,
): JsonObject {
  const out: JsonObject = { ...args };
  for (const { at, ref } of loopArguments) {
    const value = resolveLoopReference(ref, item, index) as JsonObject[string];
    const tokens = splitPointer(at);
    if (tokens.length === 1) {
      setOwnProperty(out, tokens[0]!, value);
      continue;
    }
    // A nested argument: its top-level value is copied, so elements never share what they change.
    const top = tokens[0]!;
    setOwnProperty(out, top, cloneJson(out[top]) as JsonObject[string]);
    let container = out[top] as Record<string, unknown>;
    for (let t = 1; t < tokens.length - 1; t++) container = container[tokens[t]!] as Record<string, unknown>;
    setOwnProperty(container as JsonObject, tokens[tokens.length - 1]!, value);
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
