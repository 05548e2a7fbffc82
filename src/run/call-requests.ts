/**
 * What a run asks its caller about one call instead of running its tool: a latent tool's result
 * (the model) and an earlier result to reuse. Like every request planmode makes, `tool` is the
 * tool's name and `definition` the tool.
 */
import type { JsonObject } from '../language/document.js';
import type { Tool } from '../tools/tool.js';

/**
 * A latent call that needs its result from the model. Like every request planmode makes (an
 * approval, a reuse, a remote call): `tool` is the tool's name, `definition` its definition.
 */
export interface LatentRequest {
  /** The call's id in the plan. */
  readonly call: string;
  /** The tool's name. */
  readonly tool: string;
  /** The tool's definition: its description and outputSchema tell the model what to write. */
  readonly definition: Tool;
  /** The resolved arguments. */
  readonly args: JsonObject;
  /** Aborted when the call times out or the run is cancelled. */
  readonly signal: AbortSignal;
}

/** Asks the model for a latent tool's result. */
export type LatentFunction = (request: LatentRequest) => unknown | Promise<unknown>;

/** A call about to run, as {@link RunOptions.reuse} is asked about it. */
export interface ReuseRequest {
  /** The call's id in the plan. */
  readonly call: string;
  /** The tool's name. */
  readonly tool: string;
  /** The definition that would run. */
  readonly definition: Tool;
  /** The resolved arguments. */
  readonly args: JsonObject;
}

/** An earlier result that stands in for a call: written as if the tool had returned it. */
export interface ReusedResult {
  /** The value to write (and to report as the call's output). */
  readonly output: unknown;
  /**
   * The output alternative it goes to (its index), as the earlier call reported it; never the
   * call's error alternative (that is BAD_BRANCH).
   * @default the first alternative that is not the error alternative (0, unless `_onError` names the first)
   */
  readonly branch?: number | null;
}
