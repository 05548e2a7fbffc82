/**
 * What the plan loop has spent against its budget, and the signal that stops it: a budget that
 * runs out aborts the loop's own signal, so the model request or the calls running at that
 * moment are cancelled by the same abort a caller's signal uses.
 */
import type { BudgetName, BudgetReport, BudgetSpent, SolveBudget } from './budget.js';
import type { ModelUsage } from '../model.js';

/** The reason a budget's abort carries: a request or a call cancelled by it says which budget. */
export class BudgetExceededReason extends Error {
  override name = 'BudgetExceeded';
  constructor(readonly budget: BudgetName) {
    super(`the plan loop's budget ${budget} ran out`);
  }
}

export class BudgetMeter {
  readonly budget: Readonly<Required<SolveBudget>>;
  /** Aborts when a budget runs out or the caller's signal aborts. */
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #started: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  #exceeded: BudgetName | null = null;
  #calls = 0;
  #turns = 0;
  #tokens = 0;
  #largestPlan = 0;
  #endedAt: number | null = null;

  /** `spent`: what a loop resumed from a session had spent before (its clock goes on from there). */
  constructor(budget: Readonly<Required<SolveBudget>>, signal: AbortSignal | undefined, spent?: BudgetSpent) {
    this.budget = budget;
    this.signal = signal ? AbortSignal.any([signal, this.#controller.signal]) : this.#controller.signal;
    this.#started = performance.now() - (spent?.wallMs ?? 0);
    if (spent) {
      this.#calls = spent.calls;
      this.#turns = spent.turns;
      this.#tokens = spent.tokens;
      this.#largestPlan = spent.largestPlan;
    }
    // One timer for the whole loop, cleared by end(): no ticking.
    this.#timer = setTimeout(
      () => this.#exceed('maxWallMs'),
      Math.max(0, budget.maxWallMs - (spent?.wallMs ?? 0)),
    );
    this.#timer.unref();
  }

  /** The budget that ran out, or null. */
  get exceeded(): BudgetName | null {
    return this.#exceeded;
  }

  /** Before a model request: false (and the loop is over) when no turn is left. */
  ask(): boolean {
    if (this.#exceeded) return false;
    if (this.#turns >= this.budget.maxTurns) return this.#exceed('maxTurns');
    this.#turns++;
    return true;
  }

  /** After a model request: its tokens; false when they took the loop past maxTokens. */
  used(usage: ModelUsage | undefined): boolean {
    if (usage) this.#tokens += usage.inputTokens + usage.outputTokens;
    if (this.#tokens > this.budget.maxTokens) return this.#exceed('maxTokens');
    return this.#exceeded === null;
  }

  /** A plan the model wrote, of this many calls (for the report). */
  wrote(calls: number): void {
    this.#largestPlan = Math.max(this.#largestPlan, calls);
  }

  /** Before a run: false (and the loop is over) when its calls could pass maxCalls. */
  mayRun(calls: number): boolean {
    if (this.#exceeded) return false;
    if (this.#calls + calls > this.budget.maxCalls) return this.#exceed('maxCalls');
    return true;
  }

  /** Calls that ran (the tool was called). */
  ran(calls: number): void {
    this.#calls += calls;
  }

  /** Stops the clock; the report's wall time is taken here. */
  end(): void {
    clearTimeout(this.#timer);
    this.#endedAt ??= performance.now();
  }

  report(): BudgetReport {
    const now = this.#endedAt ?? performance.now();
    return {
      budget: this.budget,
      spent: {
        calls: this.#calls,
        turns: this.#turns,
        tokens: this.#tokens,
        wallMs: Math.round(now - this.#started),
        largestPlan: this.#largestPlan,
      },
      exceeded: this.#exceeded,
    };
  }

  #exceed(budget: BudgetName): false {
    this.#exceeded ??= budget;
    this.#controller.abort(new BudgetExceededReason(budget));
    return false;
  }
}
