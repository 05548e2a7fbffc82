/** Bounds on what a plan document may be, so a runaway model cannot exhaust memory or stack. */
export interface Limits {
  /**
   * Most calls in one plan.
   * @default 1_000_000
   */
  readonly maxCalls: number;
  /**
   * Deepest nesting of objects and arrays in a call, the call object itself counting as level 1
   * (so with 3, `{"a": {"b": {}}}` is too deep). Bounds every walk over argument values.
   * @default 64
   */
  readonly maxDepth: number;
  /**
   * Longest document text, in characters.
   * @default 256 * 1024 * 1024
   */
  readonly maxTextLength: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxCalls: 1_000_000,
  maxDepth: 64,
  maxTextLength: 256 * 1024 * 1024,
};

export function resolveLimits(given: Partial<Limits> | undefined): Limits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new TypeError(`Expected limits.${key} to be a positive integer, got ${String(value)}`);
    }
  }
  return limits;
}
