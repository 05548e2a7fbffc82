/**
 * The plan loop's budget: how much one solve() may spend, in calls, model turns, tokens and
 * wall time, and how large one plan may be. Every bound has a default a real agent does not hit
 * by accident (a task that needs more says so with its own budget), so that a model that
 * misbehaves (a 50,000-call plan, the same plan forever, an endless answer) is stopped by
 * something other than the user's patience.
 */
import { describeValue } from '../../language/describe-value.js';

export interface SolveBudget {
  /**
   * Most calls in one plan the model writes. A plan over it does not compile (E_LIMIT, sent back
   * to the model for a repair like any other diagnostic), so it never ends the loop
   * `budget_exceeded` itself: the repairs running out end it `invalid`.
   * @default 1_000
   */
  readonly maxCallsPerPlan?: number;
  /**
   * Most tool calls run in the whole loop. A plan whose calls could take the total past it does
   * not run: the loop ends `budget_exceeded`.
   * @default 10_000
   */
  readonly maxCalls?: number;
  /**
   * Most model requests: solutions, repairs and (lazy mode) latent tools' answers.
   * @default 100
   */
  readonly maxTurns?: number;
  /**
   * Most tokens, input and output together, as the provider reports them in its usage. A
   * provider that reports none spends none.
   * @default 2_000_000
   */
  readonly maxTokens?: number;
  /**
   * Most milliseconds from the start of solve() to its end. When it runs out, the model request
   * or the calls running are cancelled; the state they wrote is kept.
   * @default 3_600_000 (one hour)
   */
  readonly maxWallMs?: number;
}

/** A budget's name: what a `budget_exceeded` result says ran out. */
export type BudgetName = keyof SolveBudget;

export const BUDGET_NAMES = ['maxCallsPerPlan', 'maxCalls', 'maxTurns', 'maxTokens', 'maxWallMs'] as const;

export const DEFAULT_BUDGET: Readonly<Required<SolveBudget>> = Object.freeze({
  maxCallsPerPlan: 1_000,
  maxCalls: 10_000,
  maxTurns: 100,
  maxTokens: 2_000_000,
  maxWallMs: 3_600_000,
});

/** What the loop spent, against each budget. */
export interface BudgetSpent {
  /** Tool calls that ran (a call whose earlier result was reused did not). */
  readonly calls: number;
  /** Model requests made. */
  readonly turns: number;
  /** Input and output tokens the provider reported. */
  readonly tokens: number;
  /** Milliseconds from the start of the loop to its end. */
  readonly wallMs: number;
  /** The most calls in one plan of the model's that compiled (a larger one is E_LIMIT). */
  readonly largestPlan: number;
}

/** The budget the loop had, what it spent, and which budget ran out (null: none). */
export interface BudgetReport {
  readonly budget: Readonly<Required<SolveBudget>>;
  readonly spent: BudgetSpent;
  readonly exceeded: BudgetName | null;
}

/** The largest timer delay Node takes; a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The defaults with `given` laid over it, field by field (`base` first, when given: an agent's
 * own budget under a call's).
 * @throws {TypeError} naming the field and the value, for an unknown field or a value that is not
 *   a whole number >= 1 (maxWallMs: at most 2^31 - 1, the longest timer there is).
 */
export function resolveBudget(
  given: SolveBudget | undefined,
  where: string,
  base: Readonly<Required<SolveBudget>> = DEFAULT_BUDGET,
): Readonly<Required<SolveBudget>> {
  if (given === undefined) return base;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError(`${where}: budget must be an object of budgets, not ${describeValue(given)}`);
  }
  const budget: Record<string, number> = { ...base };
  for (const [name, value] of Object.entries(given)) {
    if (!(BUDGET_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(
        `${where}: unknown budget budget.${name}; the budgets are ${BUDGET_NAMES.join(', ')}`,
      );
    }
    if (value === undefined) continue;
    const most = name === 'maxWallMs' ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > most) {
      throw new TypeError(
        `${where}: budget.${name} must be a whole number from 1 to ${most}, not ${describeValue(value)}`,
      );
    }
    budget[name] = value;
  }
  return budget as unknown as Required<SolveBudget>;
}
