/**
 * The defaults the dry run shows: per call that runs in the baseline walk, what its tool's
 * `inputSchema` `default`s fill into its arguments there (see tools/schema-defaults.ts), by
 * pointer. A `_forEach` call's are those filled into its arguments before `†item` is (each
 * element may get more, from what its item lacks).
 */
import type { CompiledPlan } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import type { ToolRegistry } from '../tools/registry.js';
import { setOwnProperty } from '../language/json/index.js';
import { buildArguments, type ResolvedArgument } from './call-arguments.js';

export class ShownDefaults {
  /** The baseline walk's resolved arguments of each call whose tool has defaults. */
  readonly #resolved = new Map<number, readonly ResolvedArgument[]>();

  constructor(
    private readonly plan: CompiledPlan,
    private readonly tools: ToolRegistry | undefined,
  ) {}

  /** Keeps call i's resolved arguments of the baseline walk, when its tool has defaults. */
  remember(i: number, resolved: readonly ResolvedArgument[]): void {
    if (this.tools?.get(this.plan.calls[i]!.tool)?.defaults) this.#resolved.set(i, resolved);
  }

  /**
   * `{ defaults }`: per call id that ran (`ran[i]` set) and had something filled, pointer to
   * value; `{}` when nothing was filled (the simulation then has no `defaults`).
   */
  shown(ran: Uint8Array): { defaults?: Record<string, Record<string, unknown>> } {
    const out: Record<string, Record<string, unknown>> = {};
    const { calls } = this.plan;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const defaults = this.tools?.get(call.tool)?.defaults;
      if (!defaults || ran[i] !== 1) continue;
      const args: JsonObject = buildArguments(call, this.#resolved.get(i) ?? []);
      if (call.forEach) delete args._forEach;
      const filled = defaults.filledInto(args);
      if (Object.keys(filled).length > 0) setOwnProperty(out, call.id, filled);
    }
    return Object.keys(out).length > 0 ? { defaults: out } : {};
  }
}
