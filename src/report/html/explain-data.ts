/**
 * What the details panel shows under "Why it waits", "If it fails" and "Independent parts" for
 * each call: `plan explain`'s three answers, made once per call when the page is written (the
 * page's script computes nothing), with calls as plan indices so the panel links them.
 *
 * A plan over {@link MAX_EXPLAINED_CALLS} calls gets none (each call's answer walks its
 * descendants: quadratic in the plan), and the panel points to `plan explain` instead.
 */
import type { CompiledPlan } from '../../compile/types.js';
import { type BlockedOutcome, type BoundedIds, edgeText, PlanExplainer } from '../../explain/index.js';

/** Most calls a plan may have for the report to explain each of them. */
export const MAX_EXPLAINED_CALLS = 500;

/** Most calls in any one list of the panel. */
const PANEL_LIMIT = 12;

/** A list of calls as the page's script reads it: plan indices and how many more. */
type IndexList = readonly [indices: number[], more: number];

export interface ExplainPanelData {
  /** [call waited for, why] pairs, and how many more. */
  readonly waits: readonly (readonly [number, string])[];
  readonly waitsMore: number;
  /** The longest chain ending at the call (its last calls), and the link text before each but the first. */
  readonly chain: readonly number[];
  readonly links: readonly string[];
  readonly chainLength: number;
  readonly descendants: number;
  /** [case, upstream_failed, skipped, may still run] per case: failed, handled (when declared), skipped. */
  readonly outcomes: readonly (readonly [string, IndexList, IndexList, IndexList])[];
  readonly parts: number;
  readonly own: IndexList;
}

/** Per call, its panel data; null for a plan too large to explain call by call. */
export function explainPanelData(plan: CompiledPlan): ExplainPanelData[] | null {
  if (plan.calls.length > MAX_EXPLAINED_CALLS) return null;
  const explainer = new PlanExplainer(plan);
  const index = (id: string) => plan.indexOf(id)!;
  const list = (ids: BoundedIds): IndexList => [ids.ids.map(index), ids.more];
  const outcome = (title: string, o: BlockedOutcome) =>
    [title, list(o.upstreamFailed), list(o.skipped), list(o.mayRun)] as const;
  return plan.calls.map((call) => {
    const e = explainer.explain(call.id, { limit: PANEL_LIMIT });
    const b = e.blocks;
    return {
      waits: e.waitsFor.dependencies.map((d) => [index(d.call), d.edges.map(edgeText).join(', ')] as const),
      waitsMore: e.waitsFor.more,
      chain: e.longestChain.calls.map(index),
      links: e.longestChain.links.map((l) => l.edges.map(edgeText).join(', ')),
      chainLength: e.longestChain.length,
      descendants: b.descendants,
      outcomes: [
        outcome('if it fails unhandled', b.ifFailed),
        ...(b.ifHandled ? [outcome(`if its error goes to ${b.ifHandled.errorPath}`, b.ifHandled)] : []),
        outcome('if it is skipped', b.ifSkipped),
      ],
      parts: e.independent.components,
      own: list(e.independent.own),
    };
  });
}
