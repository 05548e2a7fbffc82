/**
 * Compiling call by call. `compile` feeds a whole document through it; the executor feeds a
 * stream of calls as the model writes them, and starts each call as soon as it is bound.
 */
import { DiagnosticList, type DiagnosticSink, error } from '../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../language/document.js';
import type { Limits } from '../language/limits.js';
import { createStringParser } from '../language/reference.js';
import type { JsonSchema } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ArgumentColumns, ReferenceFacts } from './storage/index.js';
import {
  checkOutputAgainstSchema,
  checkTool,
  placeholder,
  DuplicateIds,
  reportErrorPathReads,
  reportCycles,
  reportMultipleWriters,
  reportMissingDaggers,
  checkStateTypes,
  checkCallTypes,
  type TypeFlowOptions,
} from './check/index.js';
import {
  AfterOrder,
  afterOf,
  EffectOrder,
  optsOut,
  OrderGates,
  type Ordering,
  orderCalls,
} from './order/index.js';
import { DataFlow } from './bind/index.js';
import {
  type BareReference,
  type CallSpec,
  toolErrorAlternative,
  readCall,
  type ReadCallOptions,
} from './read/index.js';

export interface PlanBuilderOptions {
  /** Tools to check names and literal arguments against; none means those checks are skipped. */
  readonly tools: ToolRegistry | undefined;
  /** `†input` values; undefined means unknown (input reads are not checked). */
  readonly input: JsonObject | undefined;
  /** JSON Schema of `†input`, typing input reads when no input value is given. */
  readonly inputSchema?: JsonSchema | undefined;
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
  readonly mode: ExecutionMode;
  /** Bounds on calls and on how many diagnostics are kept. */
  readonly limits: Limits;
  /**
   * Where diagnostics go, when the caller has found some already.
   * @default a new DiagnosticList keeping limits.maxDiagnostics
   */
  readonly diagnostics?: DiagnosticList;
  /** Pointer to the calls array in the document (`''`, `/plan`, `/calls`…). */
  readonly callsPointer: string;
  /**
   * Follow types along the data flow (E_REF_TYPE, W_REF_TYPE, W_REF_OPTIONAL, when there are
   * tools) and hold writers to the state schema (E_STATE_TYPE, W_STATE_TYPE).
   * @default true
   */
  readonly checkTypes?: boolean;
}

export class PlanBuilder {
  /** The diagnostics so far, unpositioned: the first `limits.maxDiagnostics`, and a count of the rest. */
  readonly pending: DiagnosticList;
  readonly #flow: DataFlow;
  readonly #ids = new DuplicateIds();
  readonly #parser = createStringParser();
  readonly #facts = new ReferenceFacts();
  readonly #bareReferences: BareReference[] = [];
  /** What the type checks need, or null when they are off (no tools, or checkTypes false). */
  readonly #types: TypeFlowOptions | null;
  /** Calls whose type check waits for the end: one of their reads is a forward reference. */
  readonly #untyped: number[] = [];
  /** What every call is read with: made once, not per call. */
  readonly #reading: ReadCallOptions;
  /** Per call, the calls it follows in program order or by `_after` (see OrderGates). */
  readonly gates = new OrderGates();
  /** The calls that opted out of program order with `_independent: true`. */
  readonly optedOut = new Set<number>();
  readonly #effects: EffectOrder;
  readonly #after: AfterOrder;

  constructor(private readonly options: PlanBuilderOptions) {
    this.pending = options.diagnostics ?? new DiagnosticList(options.limits.maxDiagnostics);
    this.#flow = new DataFlow(
      {
        input: options.input,
        state: options.state,
        stateSchema: options.stateSchema,
        parser: this.#parser,
        facts: this.#facts,
      },
      this.pending,
    );
    const { tools, input, inputSchema, state, stateSchema, mode } = options;
    this.#types =
      tools && options.checkTypes !== false ? { tools, input, inputSchema, state, stateSchema, mode } : null;
    this.#reading = {
      mode,
      limits: options.limits,
      parser: this.#parser,
      columns: new ArgumentColumns(this.#facts),
      facts: this.#facts,
      bareReferences: this.#bareReferences,
    };
    this.#effects = new EffectOrder(this.#flow, this.gates);
    this.#after = new AfterOrder(this.#flow, this.gates, this.pending);
  }

  get calls(): readonly CallSpec[] {
    return this.#flow.calls;
  }

  /** Checks the next call and binds it against the calls before it. */
  add(raw: unknown): CallSpec {
    const { tools, mode, stateSchema, callsPointer } = this.options;
    const index = this.#flow.calls.length;
    const spec =
      readCall(raw, index, callsPointer, this.#reading, this.pending) ?? placeholder(index, callsPointer);
    this.#ids.add(spec, raw !== null && typeof raw === 'object' && '_id' in raw);
    const registered = tools && spec.tool !== null ? checkTool(spec, tools, mode, this.pending) : undefined;
    // The plan's `_onError` (even an invalid one) overrides what the tool declares. A call with
    // a tool is an object (read whole by readCall).
    if (registered && spec.outputPath?.op === '||' && (raw as { _onError?: unknown })._onError === undefined)
      spec.errorAlternative = toolErrorAlternative(spec.outputPath, registered.tool);
    if (registered?.tool.latent && spec.forEach) reportLatentForEach(spec, this.pending);
    if (stateSchema && spec.outputPath) {
      checkOutputAgainstSchema(spec, stateSchema, this.pending);
      if (this.options.checkTypes !== false) checkStateTypes(spec, stateSchema, tools, mode, this.pending);
    }
    this.#flow.add(spec);
    // Program order, after the data flow: an edge the data flow made already is not made twice.
    const optedOut = optsOut(raw, spec, this.pending);
    if (optedOut) this.optedOut.add(spec.index);
    const outside = optedOut || registered?.tool.independent === true;
    this.#effects.add(spec.index, registered?.programOrder === true, outside);
    this.#after.add(spec, this.#flow.calls, afterOf(raw));
    // Checked as soon as its reads are settled, so a streamed call's diagnostics come before it runs.
    if (this.#types) {
      if (!this.#flow.waitsForLater(spec.index))
        checkCallTypes(spec, this.#flow.calls, this.#types, this.pending);
      else this.#untyped.push(spec.index);
    }
    return spec;
  }

  /**
   * True when call i waits for the end of the plan: it reads what only a later call may write,
   * or its `_after` names a call not seen yet.
   */
  waitsForLater(i: number): boolean {
    return this.#flow.waitsForLater(i) || this.#after.waitsForLater(i);
  }

  /** Binds forward references and checks the whole graph; returns its order. */
  finish(): Ordering {
    this.#flow.finish();
    this.#after.finish(this.#flow.calls);
    const specs = this.#flow.calls;
    this.#ids.report(specs, this.pending);
    reportErrorPathReads(specs, this.pending);
    const { input, state, stateSchema } = this.options;
    reportMissingDaggers(
      this.#bareReferences,
      specs,
      { input, state, stateSchema },
      this.#parser,
      this.pending,
    );
    if (this.#types) {
      for (const i of this.#untyped) checkCallTypes(specs[i]!, specs, this.#types, this.pending);
    }
    const ordering = orderCalls(
      specs,
      this.#flow.neverRuns,
      (a, b) => this.#flow.exclusive(a, b),
      this.#flow.edges,
    );
    if (ordering.order.length < specs.length) {
      const after = this.#after;
      reportCycles(specs, ordering.order, this.pending, {
        afterEntry: (to, from) => after.entryNaming(to, specs[from]!.id),
        gateKind: (to, from) => this.gates.kindBetween(to, from),
      });
    }
    if (this.#flow.overlappingWrites.length > 0) {
      reportMultipleWriters(specs, ordering.order, this.#flow.overlappingWrites, this.pending);
    }
    return ordering;
  }
}

/** A latent tool's result is what the model writes in `_output`, once per call: it cannot loop. */
function reportLatentForEach(spec: CallSpec, pending: DiagnosticSink): void {
  pending.push(
    error(
      'E_FOR_EACH',
      `${spec.pointer}/_forEach`,
      `"${spec.tool}" is a latent tool: a _forEach call cannot use it`,
      {
        call: spec.id,
        atKey: true,
        hint: 'its result comes from the model, once per call: write one call per element, or loop over a tool that runs',
      },
    ),
  );
}
