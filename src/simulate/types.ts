/** The dry run's public shapes: options and the simulation it returns. */
import type { JsonObject, ExecutionMode } from '../language/document.js';
import type { Limits } from '../language/limits.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';

export type {
  ArgumentError,
  ForEachSimulation,
  Sample,
  SampleSource,
  Scenario,
  Simulation,
  WorkflowCallSimulation,
  WorkflowChoice,
} from '../run/simulation.js';

export interface SimulateOptions {
  /**
   * The tools: a registry or definitions (no `execute` needed). Their `outputSchema`s are
   * sampled, their `inputSchema`s check the resolved arguments, their `estimatedMs` weigh
   * the critical path.
   * @default the compiled plan's registry; without one every output is unknown
   */
  readonly tools?: ToolRegistry | Iterable<Tool>;
  /**
   * `†input` values (merged over the document's input message).
   * @default {}
   */
  readonly input?: JsonObject;
  /**
   * Initial state (merged over the document's state message). Never mutated.
   * @default {}
   */
  readonly state?: JsonObject;
  /**
   * Makes the plan lazy: it runs lazily when the plan or this option says lazy. An option
   * cannot make a lazy plan eager.
   * @default the plan's own mode
   */
  readonly mode?: ExecutionMode;
  /**
   * Seed of the output samples: the same plan, tools and seed give the same simulation.
   * @default 1
   */
  readonly seed?: number;
  /**
   * Most scenarios listed; past it `truncated` is true.
   * @default 256
   */
  readonly maxScenarios?: number;
  /**
   * The limits a real result is held to (see compile's `limits`): a tool's `outputSchema` whose
   * sample could not fit them (a `minItems` past `maxArrayIndex`, a `minProperties` past
   * `maxKeys`, a sample of more than `maxTextLength` or 4 Mi characters of JSON) is not sampled:
   * its calls' outputs are unknown, and a `W_LIMIT` warning names the tool and the bound.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * The most elements simulated per `_forEach` call: the length of the array it reads in the
   * walk, at most this; this many when that array is unknown.
   * @default 3
   */
  readonly forEachSamples?: number;
  /**
   * How many elements of a `_forEach` call run at once, as the run's `concurrency`: a
   * `_forEach` call's duration is ceil(elements / concurrency) times one element's.
   * @default 16
   */
  readonly concurrency?: number;
  /**
   * Checks (and shows, in `Simulation.defaults`) the arguments with the `default`s their tools'
   * `inputSchema`s fill in, as a run does unless told otherwise (RunOptions.applyDefaults).
   * @default true
   */
  readonly applyDefaults?: boolean;
}
