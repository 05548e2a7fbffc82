/**
 * What the plan loop remembers so that a side effect happens once per `solve()`. The model
 * sees its previous plan and often lists a call that already ran again (asked again after a
 * refund, a model lists `issueRefund` again): run again, the customer would be
 * refunded twice. So each call of a mutating tool that succeeded is recorded under its tool and
 * its resolved arguments (canonical JSON: key order does not matter), and a later turn's call
 * with the same key is not run; its earlier result is written in its place (RunOptions.reuse).
 *
 * Not recorded, so always run: read-only tools (running them again only reads again), latent
 * tools (the model answers; nothing happens in the world), tools marked `repeatable`, and
 * calls that did not succeed. Within one run nothing is reused: a plan that lists a call twice
 * means it twice.
 */
import type { JsonObject } from '../../language/document.js';
import { canonicalJson } from '../../run/journal/index.js';
import type { CallReport, ReusedResult, ReuseRequest, RunOptions } from '../../run/types.js';
import { trustedReadOnlyHint } from '../../tools/effects.js';
import type { Tool } from '../../tools/tool.js';
import type { SessionSideEffect } from './session.js';

/** Whether a tool is read-only: the policy's classifier's word, by definition. */
export type IsReadOnly = (tool: Tool) => boolean;

/**
 * Without a classifier: read-only only when the definition says `readOnlyHint: true` and its
 * annotations are trusted (not an MCP server's claim), as the default policy decides.
 */
export const annotatedReadOnly: IsReadOnly = trustedReadOnlyHint;

export class SideEffectLedger {
  readonly #done = new Map<string, ReusedResult & { readonly tool: string; readonly args: JsonObject }>();
  /**
   * Every call that succeeded in a run halted because the reply it streamed from was not a
   * solution, read-only or not: the model did not mean that plan, yet it ran, and the corrected
   * reply is about the same moment, so nothing of it runs again. Until the next run ends.
   */
  readonly #halted = new Map<string, ReusedResult & { readonly tool: string; readonly args: JsonObject }>();

  constructor(private readonly isReadOnly: IsReadOnly) {}

  /** Records the side effects of a finished run: its mutating calls that succeeded. */
  record(calls: readonly CallReport[], tools: readonly Tool[]): void {
    this.#halted.clear();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const call of calls) {
      const tool = byName.get(call.tool);
      if (call.status !== 'succeeded' || !tool || !call.args || !this.#hasSideEffect(tool)) continue;
      this.#done.set(keyOf(tool.name, call.args), {
        tool: tool.name,
        args: call.args,
        output: call.output,
        branch: call.branch,
      });
    }
  }

  /** The side effects recorded, for a session snapshot. */
  sideEffects(): SessionSideEffect[] {
    return [...this.#done.values()].map(({ tool, args, output, branch }) => ({
      tool,
      args,
      output,
      branch: branch ?? null,
    }));
  }

  /** Side effects that ran before the loop was resumed from a session snapshot. */
  restore(sideEffects: readonly SessionSideEffect[]): void {
    for (const { tool, args, output, branch } of sideEffects) {
      this.#done.set(keyOf(tool, args), { tool, args, output, branch });
    }
  }

  /**
   * Records a halted run (see #halted): its side effects as record() does, and each other call
   * that succeeded, for the repair of the same reply. Latent calls are not recorded: writing the
   * result the model gave ran nothing.
   */
  recordHalted(calls: readonly CallReport[], tools: readonly Tool[]): void {
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const call of calls) {
      const tool = byName.get(call.tool);
      if (call.status !== 'succeeded' || !tool || !call.args || tool.latent === true) continue;
      const result = { tool: tool.name, args: call.args, output: call.output, branch: call.branch };
      (this.#hasSideEffect(tool) ? this.#done : this.#halted).set(keyOf(tool.name, call.args), result);
    }
  }

  /** The hook for run(): the earlier result of the same side effect (or halted call), if there is one. */
  readonly reuse: NonNullable<RunOptions['reuse']> = ({ definition: tool, args }: ReuseRequest) => {
    if (this.#done.size === 0 && this.#halted.size === 0) return undefined;
    const key = keyOf(tool.name, args);
    return (this.#hasSideEffect(tool) ? this.#done.get(key) : undefined) ?? this.#halted.get(key);
  };

  /** How many distinct side effects were recorded. */
  get size(): number {
    return this.#done.size;
  }

  #hasSideEffect(tool: Tool): boolean {
    return tool.latent !== true && tool.repeatable !== true && !this.isReadOnly(tool);
  }
}

function keyOf(tool: string, args: unknown): string {
  return `${tool}\n${canonicalJson(args)}`;
}
