/**
 * Which tools act on the world, so that their calls run in program order (see the plan
 * language's "Effects follow program order"). One rule for the compile, the executor and the
 * agent, here at the bottom where all three can import it.
 *
 * A tool has effects when it declares them: `needsApproval: true`, `destructiveHint: true`, or
 * `readOnlyHint: false`. Claims are believed by the same trust rule as plan mode's, turned
 * the cautious way round: a claim of effects is believed from anyone (believing it only costs
 * parallelism), a `readOnlyHint: true` only from a trusted definition (it would let calls race
 * an effect), and it then outweighs the other hints (MCP: `destructiveHint` means something only
 * when `readOnlyHint` is false). A latent tool has none: the model writes its result. A tool
 * that declares nothing has none either, so plans of plain tools keep their data-flow parallelism.
 */
import type { Tool } from './tool.js';

/**
 * A `readOnlyHint: true` that is believed: the definition's own, not a third party's claim
 * (`annotationsTrusted: false`, what the adapters mark). Plan mode's default trust rule.
 */
export function trustedReadOnlyHint(tool: Tool): boolean {
  return tool.annotations?.readOnlyHint === true && tool.annotationsTrusted !== false;
}

/** Whether calls to `tool` act on the world (see the header for the rule). */
export function declaresEffects(tool: Tool): boolean {
  if (tool.latent === true || trustedReadOnlyHint(tool)) return false;
  const annotations = tool.annotations;
  return (
    tool.needsApproval === true ||
    annotations?.destructiveHint === true ||
    annotations?.readOnlyHint === false
  );
}

/**
 * Whether calls to `tool` follow program order: it has effects and does not opt out with
 * `independent: true`. A call can still opt out on its own (`_independent: true`).
 */
export function followsProgramOrder(tool: Tool): boolean {
  return tool.independent !== true && declaresEffects(tool);
}
