/**
 * The base every planmode error shares: one class, a brand on its prototype, and `isKind`, the
 * guard helper the error files build their `is...Error` functions on.
 *
 * The guards check the brand and the exact name, not `instanceof` alone, so an error made by
 * another copy of planmode (two versions in one `node_modules`, a bundled copy) is still
 * recognised, and another library's error whose name merely looks alike (`ToolTimeoutError` in
 * @openai/agents, `ToolError` in @anthropic-ai/sdk) is not.
 */
/**
 * The brand on PlanError's prototype. `Symbol.for` gives every copy of planmode the same
 * symbol, where a class (and so `instanceof`) differs from copy to copy.
 */
const PLAN_ERROR_BRAND: unique symbol = Symbol.for('planmode.error');

/** The base class of planmode's errors; `isPlanError` recognises them from any copy of planmode. */
export class PlanError extends Error {
  override name = 'PlanError';
}

Object.defineProperty(PlanError.prototype, PLAN_ERROR_BRAND, { value: true });

/**
 * True for an error made by planmode, this copy or any other: it carries PlanError's brand.
 * False for everything else, whatever its name.
 */
export function isPlanError(value: unknown): value is PlanError {
  return isKind(value, PlanError, null);
}

/**
 * An error of this copy's `type`, or a branded error from another copy whose name is one of
 * `names` (any name, for null). Never throws: a revoked proxy or a throwing getter is simply
 * not a planmode error.
 */
export function isKind<T extends PlanError>(
  value: unknown,
  type: abstract new (...args: never[]) => T,
  names: readonly string[] | null,
): value is T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    if (value instanceof type) return true;
    const { name } = value as { name?: unknown };
    return (
      (value as { [PLAN_ERROR_BRAND]?: unknown })[PLAN_ERROR_BRAND] === true &&
      typeof name === 'string' &&
      (names === null || names.includes(name))
    );
  } catch {
    return false;
  }
}
