/** What `explainCall` answers about one call of a compiled plan (see explain.ts). */
import type { DependencyKind, OrderReason } from '../compile/types.js';

/** One reason an edge is there: a state path (data or order), or program order. */
export interface ExplainEdge {
  /** `data`: the call reads what the other writes; `order`: it must only come after it. */
  readonly kind: DependencyKind;
  /** The state path that makes the edge, as written in the plan; `''` for program order. */
  readonly path: string;
  /** `after`: the call's `_after` names the other; `effect`: program order around an effect. */
  readonly reason?: OrderReason;
}

/** A call the explained call waits for, with every reason it does. */
export interface ExplainDependency {
  readonly call: string;
  readonly tool: string;
  readonly edges: readonly ExplainEdge[];
}

/** One step of a chain: `from` ends before `to` starts, for these reasons. */
export interface ExplainLink {
  readonly from: string;
  readonly to: string;
  readonly edges: readonly ExplainEdge[];
}

/** Call ids, at most `limit` of them, and how many more there are. */
export interface BoundedIds {
  readonly ids: readonly string[];
  /** How many there are in all (`ids.length + more`). */
  readonly total: number;
  readonly more: number;
}

/**
 * How the calls downstream of the explained call would end, if it ended as the case says:
 * `upstreamFailed` and `skipped` are the statuses the run gives them, whatever the other calls
 * do. `mayRun` ones are not blocked by it alone: they only follow it in time, or an `||`
 * alternative, another writer or the initial state can still give them what they read; how they
 * end then depends on the other calls (an `||` whose other alternatives a branch left unwritten
 * ends `upstream_failed` all the same).
 */
export interface BlockedOutcome {
  readonly upstreamFailed: BoundedIds;
  readonly skipped: BoundedIds;
  readonly mayRun: BoundedIds;
}

export interface CallExplanation {
  readonly call: string;
  readonly tool: string;
  /** 0-based position in the plan. */
  readonly index: number;
  /** Why it waits: the calls it depends on directly, and why. */
  readonly waitsFor: {
    readonly dependencies: readonly ExplainDependency[];
    /** How many it depends on in all (`dependencies.length + more`). */
    readonly total: number;
    readonly more: number;
  };
  /**
   * The longest chain of dependent calls that ends at it, first to last (it is the last), and
   * the link between each two. A long chain keeps its last `limit` calls: `omitted` says how
   * many came before them.
   */
  readonly longestChain: {
    readonly calls: readonly string[];
    readonly links: readonly ExplainLink[];
    /** Calls in the whole chain, this one included. */
    readonly length: number;
    readonly omitted: number;
  };
  /** What its ending without its output would do downstream. */
  readonly blocks: {
    /** Every call that depends on it, directly or not. */
    readonly descendants: number;
    /** It fails unhandled (or ends upstream_failed itself). */
    readonly ifFailed: BlockedOutcome;
    /** Its tool's own error goes to its declared error alternative; null when it declares none. */
    readonly ifHandled: (BlockedOutcome & { readonly errorPath: string }) | null;
    /** It is skipped (a value it reads was never written). */
    readonly ifSkipped: BlockedOutcome;
  };
  /** The parts of the plan that share no edge (weakly connected components). */
  readonly independent: {
    /** How many parts the plan has. */
    readonly components: number;
    /** The part this call is in. */
    readonly own: BoundedIds;
    /** The other parts, each bounded, in plan order of their first call. */
    readonly others: readonly BoundedIds[];
    /** Other parts not listed. */
    readonly more: number;
  };
}

export interface ExplainOptions {
  /**
   * Most ids listed in any one list of the answer (dependencies, chain, each status group,
   * each component, the components listed); every list says how many more there are.
   * @default 50
   */
  readonly limit?: number;
}
