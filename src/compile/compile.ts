/** compile(): one pass from a document to a validated, ordered dependency graph. */
import {
  compareDiagnostics,
  type Diagnostic,
  error,
  hasErrors,
  type PendingDiagnostic,
  warning,
} from '../language/diagnostics.js';
import type { JsonObject, PlanDocument, PlanMode } from '../language/document.js';
import { type Limits, resolveLimits } from '../language/limits.js';
import { parsePlan, positionDiagnostics } from '../language/parse-plan.js';
import { formatPath } from '../language/paths.js';
import { joinPointer } from '../language/pointer.js';
import { createStringParser } from '../language/reference.js';
import { SourceText } from '../language/source.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import { checkLiteralArguments } from './check-arguments.js';
import { findCycles } from './cycles.js';
import { DataFlow, type OverlappingWrite } from './data-flow.js';
import { DuplicateIds } from './duplicate-ids.js';
import { ExclusiveBranches } from './exclusive-branches.js';
import { nearest } from './nearest.js';
import { orderCalls } from './order.js';
import { type CallSpec, readCall } from './read-call.js';
import { checkStatePath } from './state-schema.js';
import type { CompiledCall, CompiledPlan } from './types.js';

export interface CompileOptions {
  /**
   * The tools calls may use. Without them, tool names and arguments are not checked, and
   * everything else still is.
   * @default undefined
   */
  readonly tools?: ToolRegistry | Iterable<Tool>;
  /**
   * `†input` values, merged over the document's input message. When neither gives any input,
   * input reads are not checked.
   * @default undefined
   */
  readonly input?: JsonObject;
  /**
   * Initial state, merged over the document's state message.
   * @default {}
   */
  readonly state?: JsonObject;
  /**
   * Overrides the mode the document asks for.
   * @default the document's mode (eager when it names none)
   */
  readonly mode?: PlanMode;
  /**
   * Name of the document in diagnostics when it is given as text or a value.
   * @default '<input>'
   */
  readonly source?: string;
  /**
   * Bounds on the document.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

export interface CompileResult {
  /** True when there is no error (warnings allowed). */
  readonly ok: boolean;
  /** The compiled plan, when ok. */
  readonly plan?: CompiledPlan;
  /** Every error and warning, in source order. */
  readonly diagnostics: Diagnostic[];
  /** The parsed document, when the text was JSON of a known shape. */
  readonly document: PlanDocument | null;
}

/**
 * Compiles a plan: a document from {@link parsePlan}, JSON text, or a JSON value. Never throws
 * for a bad plan; every problem is a diagnostic.
 *
 * @throws {ToolDefinitionError} when `tools` holds a definition that cannot be used.
 * @throws {TypeError} for a bad option value.
 */
export function compile(input: PlanDocument | string | unknown, options: CompileOptions = {}): CompileResult {
  const limits = resolveLimits(options.limits);
  if (options.mode !== undefined && options.mode !== 'eager' && options.mode !== 'lazy') {
    throw new TypeError(`Expected mode to be 'eager' or 'lazy', got ${String(options.mode)}`);
  }
  const tools = options.tools === undefined ? undefined : ToolRegistry.from(options.tools);
  let document: PlanDocument | null;
  let parseDiagnostics: Diagnostic[] = [];
  if (isPlanDocument(input)) document = input;
  else {
    const parsed = parsePlan(input, {
      limits,
      ...(options.source !== undefined && { source: options.source }),
    });
    document = parsed.document;
    parseDiagnostics = parsed.diagnostics;
  }
  if (!document) return { ok: false, diagnostics: parseDiagnostics, document: null };

  const pending: PendingDiagnostic[] = [];
  const mode = options.mode ?? document.mode;
  const givenInput = document.input || options.input ? { ...document.input, ...options.input } : undefined;
  const state: JsonObject = { ...document.state, ...options.state };
  const stateSchema = document.stateSchema;
  const flow = new DataFlow({ input: givenInput, state, stateSchema }, pending);

  const ids = new DuplicateIds(document.calls.length);
  const parser = createStringParser();
  document.calls.forEach((raw, index) => {
    const pointer = joinPointer(document.callsPointer, index);
    const spec =
      readCall(raw, { index, pointer, mode, maxDepth: limits.maxDepth, parser }, pending) ??
      placeholder(index, pointer);
    ids.add(spec, raw !== null && typeof raw === 'object' && '_id' in raw);
    if (tools && spec.tool !== null) checkTool(spec, tools, mode, pending);
    if (stateSchema && spec.outputPath) checkOutputAgainstSchema(spec, stateSchema, pending);
    flow.add(spec);
  });
  flow.finish();
  const specs = flow.calls;
  ids.report(specs, pending);
  const ordering = orderCalls(specs);
  if (ordering.order.length < specs.length) reportCycles(specs, ordering.order, pending);
  if (flow.overlappingWrites.length > 0)
    reportMultipleWriters(specs, ordering.order, flow.overlappingWrites, pending);

  // Each list is in source order; together they must be too (CompileResult promises it).
  const diagnostics = [...parseDiagnostics, ...positionDiagnostics(pending, document.source)].sort(
    compareDiagnostics,
  );
  if (hasErrors(diagnostics)) return { ok: false, diagnostics, document };
  // Without errors every call has its tool, so the specs are the compiled calls as they are.
  const calls = specs as readonly CompiledCall[];
  let edgeCount = 0;
  for (const call of calls) edgeCount += call.dependencies.length;
  const plan = new Plan({
    mode,
    calls,
    order: ordering.order,
    levels: ordering.levels,
    criticalPath: ordering.criticalPath,
    edgeCount,
    ...(givenInput && { input: givenInput }),
    state,
    ...(stateSchema && { stateSchema }),
    ...(tools && { tools }),
    diagnostics,
  });
  return { ok: true, plan, diagnostics, document };
}

class Plan implements CompiledPlan {
  readonly mode!: PlanMode;
  readonly calls!: readonly CompiledCall[];
  readonly order!: readonly number[];
  readonly levels!: readonly number[];
  readonly criticalPath!: readonly number[];
  readonly edgeCount!: number;
  readonly input?: JsonObject;
  readonly state?: JsonObject;
  readonly stateSchema?: JsonObject;
  readonly tools?: ToolRegistry;
  readonly diagnostics!: readonly Diagnostic[];
  #ids: Map<string, number> | undefined;

  constructor(fields: Omit<CompiledPlan, 'indexOf'>) {
    Object.assign(this, fields);
  }

  indexOf(id: string): number | undefined {
    this.#ids ??= new Map(this.calls.map((c) => [c.id, c.index]));
    return this.#ids.get(id);
  }
}

function isPlanDocument(value: unknown): value is PlanDocument {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as PlanDocument).source instanceof SourceText &&
    'shape' in value
  );
}

function placeholder(index: number, pointer: string): CallSpec {
  return {
    index,
    id: String(index),
    tool: null,
    pointer,
    args: {},
    refs: [],
    literals: [],
    outputPath: null,
    hasOutput: false,
    reads: [],
    dependencies: [],
  };
}

function checkTool(spec: CallSpec, tools: ToolRegistry, mode: PlanMode, pending: PendingDiagnostic[]): void {
  const registered = tools.get(spec.tool!);
  if (!registered) {
    const near = nearest(spec.tool!, tools.names());
    const names = tools.names();
    pending.push(
      error('E_UNKNOWN_TOOL', joinPointer(spec.pointer, '_tool'), `unknown tool "${spec.tool}"`, {
        call: spec.id,
        hint: near
          ? `did you mean "${near}"?`
          : names.length <= 12
            ? `the tools are: ${names.join(', ')}`
            : 'check the tool name against the tools file',
      }),
    );
    return;
  }
  if (registered.validateInput) checkLiteralArguments(spec, spec.tool!, registered.validateInput, pending);
  if (spec.hasOutput && mode === 'eager' && !registered.tool.latent) {
    pending.push(
      error(
        'E_UNKNOWN_META',
        joinPointer(spec.pointer, '_output'),
        `_output is only for latent tools, and "${spec.tool}" is not latent`,
        {
          call: spec.id,
          atKey: true,
          hint: 'remove _output: the tool runs and produces the result itself',
        },
      ),
    );
  }
}

function checkOutputAgainstSchema(spec: CallSpec, schema: JsonObject, pending: PendingDiagnostic[]): void {
  const output = spec.outputPath!;
  let searchFrom = 0;
  for (const path of output.paths) {
    const verdict = checkStatePath(schema, path.segments);
    const text = formatPath('state', path.segments);
    const offset = Math.max(0, output.text.indexOf('†', searchFrom));
    searchFrom = offset + 1;
    if (verdict.allowed) continue;
    const segment = String(path.segments[verdict.failedAt ?? 0]);
    const near = nearest(segment, verdict.known);
    pending.push(
      error(
        'E_STATE_SCHEMA',
        joinPointer(spec.pointer, '_outputPath'),
        `the state schema has no place for ${text}`,
        {
          call: spec.id,
          offset,
          hint: near
            ? `did you mean "${near}"?`
            : verdict.known.length > 0
              ? `the schema declares: ${verdict.known.join(', ')}`
              : 'write to a path the state schema declares, or extend the schema',
        },
      ),
    );
  }
}

function reportCycles(
  calls: readonly CallSpec[],
  order: readonly number[],
  pending: PendingDiagnostic[],
): void {
  const placed = new Uint8Array(calls.length);
  for (const v of order) placed[v] = 1;
  const remaining: number[] = [];
  for (let i = 0; i < calls.length; i++) if (!placed[i]) remaining.push(i);
  for (const cycle of findCycles(remaining, calls)) {
    const names = cycle.map((i) => calls[i]!.id).join(' -> ');
    // Only a forward reference can close a cycle: point at it.
    let pointer = calls[cycle[0]!]!.pointer;
    let offset: number | undefined;
    let detail = '';
    for (let k = 0; k + 1 < cycle.length; k++) {
      const from = cycle[k]!;
      const to = cycle[k + 1]!;
      const read = calls[to]!.reads.find((r) => r.kind === 'later' && r.writers.includes(from));
      if (read) {
        pointer = calls[to]!.pointer + read.at;
        offset = read.ref.start;
        detail = ` (call ${calls[to]!.id} reads ${read.ref.text}, which call ${calls[from]!.id} writes later)`;
        break;
      }
    }
    pending.push(
      error('E_CYCLE', pointer, `dependency cycle: ${names}${detail}`, {
        call: calls[cycle[0]!]!.id,
        ...(offset !== undefined && { offset }),
        hint: 'a call cannot wait for a value that only a call waiting on it produces; read a value written earlier, or split the step',
      }),
    );
  }
}

function reportMultipleWriters(
  calls: readonly CallSpec[],
  order: readonly number[],
  writes: readonly OverlappingWrite[],
  pending: PendingDiagnostic[],
): void {
  const branches = new ExclusiveBranches(calls, order);
  const byLater = new Map<number, OverlappingWrite[]>();
  for (const w of writes) {
    if (branches.exclusive(w.earlier, w.later)) continue;
    const list = byLater.get(w.later);
    if (list) list.push(w);
    else byLater.set(w.later, [w]);
  }
  for (const [later, list] of byLater) {
    const call = calls[later]!;
    // w.path is this call's write; name the earlier call's own output path beside it.
    const others = list
      .map((w) => {
        const earlier = calls[w.earlier]!;
        return `${w.path} overlaps call ${earlier.id} (${earlier.tool ?? '?'}), which writes ${earlier.outputPath?.text ?? w.path}`;
      })
      .join('; ');
    pending.push(
      warning(
        'W_MULTIPLE_WRITERS',
        joinPointer(call.pointer, '_outputPath'),
        `this call overwrites what an earlier call wrote: ${others}`,
        {
          call: call.id,
          hint: 'array order decides and the last write wins; give each result its own path if both are needed',
        },
      ),
    );
  }
}
