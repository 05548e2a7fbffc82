/**
 * The shapes of a dry run's result. They are simulate/'s, but live beneath it in run/ because a
 * plan approval (run/approval.ts) may carry one; simulate/types.ts exports them from here.
 */
import type { Diagnostic } from '../language/diagnostics.js';

/**
 * A resolved argument that its tool's `inputSchema` rejects, in some scenario: usually a
 * writer's `outputSchema` that does not fit the reader's `inputSchema`.
 */
export interface ArgumentError {
  /** Id of the call whose argument is wrong. */
  readonly call: string;
  readonly tool: string;
  /** JSON pointer inside the call's arguments (`/amount`, `` for the whole object). */
  readonly path: string;
  /** RFC 6901 pointer into the document, and the 1-based position of that value. */
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
  /** Id of the call that wrote the value, or null (input, initial state, a literal). */
  readonly writer: string | null;
  /** The reference expression that produced the value, as written, or null. */
  readonly reference: string | null;
  /** What is wrong, and how to fix it. */
  readonly message: string;
}

/** One walk of the graph: a combination of the alternatives taken at branch points. */
export interface Scenario {
  /**
   * The alternative (0-based index into its `_outputPath`'s `||` paths) each branching call
   * that runs in this scenario takes. Branching calls that are skipped are absent.
   */
  readonly choices: Readonly<Record<string, number>>;
  /** Ids of the calls that run (a handled throw into a declared error alternative counts), in array order. */
  readonly run: readonly string[];
  /** Ids of the calls that are skipped (a value they need is never written), in array order. */
  readonly skipped: readonly string[];
  readonly argumentErrors: readonly ArgumentError[];
  /**
   * Ids of the branching calls whose choice differs from the baseline (scenario 0, where
   * every branching call takes alternative 0, or 1 when `_onError` names alternative 0). Empty
   * for the baseline.
   */
  readonly varies: readonly string[];
  /**
   * Ids of the `_forEach` calls whose array is empty in this scenario (they write `[]`). Each
   * `_forEach` call that runs in the baseline has one such scenario, the others at baseline.
   * Absent when none is.
   */
  readonly emptyForEach?: readonly string[];
  /**
   * The alternative each branching call inside a workflow call takes in this scenario (of the
   * workflow calls that run, at any depth), in walk order. The elements of a `_forEach` call
   * over a workflow all take the same. Absent when the scenario walks no workflow that branches.
   */
  readonly workflowChoices?: readonly WorkflowChoice[];
}

/** A branching call inside a workflow, and the alternative it takes in a scenario. */
export interface WorkflowChoice {
  /** The workflow calls down to it, outermost first: each one's id in its own plan. */
  readonly within: readonly string[];
  /** The branching call's id in the innermost workflow's plan. */
  readonly call: string;
  /** The alternative it takes (0-based index into its `_outputPath`'s `||` paths). */
  readonly choice: number;
  /** True when that is not its baseline (as `varies` says of the plan's own calls). */
  readonly varies: boolean;
}

/**
 * What a workflow call's sub-plan did in the baseline walk (its own branching calls at their
 * baseline; the other choices inside it are scenarios, see Scenario.workflowChoices), with the
 * call's sampled arguments as its `†input`. Of a `_forEach` call over a workflow, its first
 * element's.
 */
export interface WorkflowCallSimulation {
  /** The workflow (tool) called. */
  readonly workflow: string;
  /** Calls in its plan. */
  readonly calls: number;
  /** Ids of its calls that run, and that are skipped, in array order. */
  readonly run: readonly string[];
  readonly skipped: readonly string[];
  /** Its critical path (ids of its calls) and that path's weight: the workflow call's duration. */
  readonly criticalPath: readonly string[];
  readonly criticalPathWeight: number;
  /**
   * Its calls' argument errors, each at its pointer in the workflow's plan. Each is also one
   * `E_SIM_ARGS` of the calling plan, at the workflow call, naming the chain of calls to it.
   */
  readonly argumentErrors: readonly ArgumentError[];
  /** The same, per workflow call of its own plan (by id). */
  readonly workflows: Readonly<Record<string, WorkflowCallSimulation>>;
  /**
   * True when the chain of workflow calls went deeper than MAX_WORKFLOW_DEPTH here: this call's
   * sub-plan was not walked, and its output is sampled from its outputSchema.
   */
  readonly tooDeep: boolean;
}

/** A `_forEach` call in the baseline walk. */
export interface ForEachSimulation {
  /** Elements simulated (see SimulateOptions.forEachSamples). */
  readonly elements: number;
  /** How many run at once (the run's concurrency). */
  readonly lanes: number;
  /** Its duration: ceil(elements / lanes) times one element's (the slowest's). */
  readonly weight: number;
}

/** Where a call's simulated output came from. */
export type SampleSource = 'schema' | 'output' | 'workflow' | 'unknown';

export interface Sample {
  /**
   * `schema`: sampled from `outputSchema`; `output`: the latent call's `_output`; `workflow`: a
   * workflow's `output` on its simulated sub-plan (a `_forEach` over one: the array of them);
   * `unknown`: no schema.
   */
  readonly source: SampleSource;
  /** The value (null when unknown: reads of it exist but are not type-checked). */
  readonly value: unknown;
}

export interface Simulation {
  /**
   * The baseline (every branching call takes alternative 0), then, per group of branching
   * calls that interact, every other combination of that group's alternatives with the other
   * groups at baseline. Combinations across independent groups are not listed: their effects
   * touch disjoint calls, so any such combination is the union of the listed ones.
   */
  readonly scenarios: readonly Scenario[];
  /** True when there were more scenarios than `maxScenarios`. */
  readonly truncated: boolean;
  /**
   * The groups of branching calls enumerated together (ids), in plan order; a workflow call
   * whose plan branches is in one too (the choices inside it are enumerated with its group).
   */
  readonly branchGroups: readonly (readonly string[])[];
  /** The heaviest chain of dependent calls (ids, first to last). */
  readonly criticalPath: readonly string[];
  /**
   * Its weight: the sum of each call's duration: its tool's `estimatedMs` (1 for a tool without
   * one), a workflow call's its sub-plan's critical path weight, a `_forEach` call's its lanes'.
   */
  readonly criticalPathWeight: number;
  /** The number of calls in the widest level of the graph. */
  readonly maxParallelism: number;
  /** The widest level: its depth (0 for calls without dependencies) and its calls' ids. */
  readonly widestLevel: { readonly level: number; readonly calls: readonly string[] };
  /**
   * Each call's simulated output in the baseline, by id (a `_forEach` call's: the array of its
   * elements').
   */
  readonly samples: Readonly<Record<string, Sample>>;
  /** Per workflow call that runs in the baseline (by id): what its sub-plan did. */
  readonly workflows: Readonly<Record<string, WorkflowCallSimulation>>;
  /** Per `_forEach` call that runs in the baseline (by id): its elements and duration. */
  readonly forEach: Readonly<Record<string, ForEachSimulation>>;
  /**
   * Per call that runs in the baseline (by id) and leaves out a property its tool's
   * `inputSchema` gives a `default`: the defaults the run fills in, by JSON pointer inside the
   * arguments (`{"/depth": "moderate"}`). A `_forEach` call's are those of its arguments before
   * `†item`. Absent when no default is filled (or `applyDefaults` is false).
   */
  readonly defaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The compile warnings, then one `E_SIM_ARGS` error per distinct argument error. */
  readonly diagnostics: readonly Diagnostic[];
}
