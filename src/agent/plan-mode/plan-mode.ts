/**
 * The plan-mode latch: off, planning or executing, plus the approved plan. It is the one
 * switch every policy, guard and child agent reads, so it is never broken by its observers.
 *
 * | from \ call | `enter()`                | `exit(plan)`                    | `reset()`              |
 * |-------------|--------------------------|---------------------------------|------------------------|
 * | off         | planning                 | PlanModeTransitionError         | no-op                  |
 * | planning    | no-op                    | executing, `plan` = the plan    | off, `plan` = null     |
 * | executing   | planning (plan kept)     | PlanModeTransitionError         | off, `plan` = null     |
 *
 * A no-op changes nothing and tells no observer; `enter()` and `reset()` return whether the
 * state changed.
 */
import { PlanModeTransitionError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_MODE_OPTIONS } from './option-specs.js';

export const PLAN_MODE_STATES = ['off', 'planning', 'executing'] as const;
export type PlanModeState = (typeof PLAN_MODE_STATES)[number];

/** What observers are told after every transition that changed something. */
export interface PlanModeChange {
  readonly action: 'enter' | 'exit' | 'reset';
  readonly previous: PlanModeState;
  readonly state: PlanModeState;
  /** The plan after the transition. */
  readonly plan: string | null;
}

/** Called after each change; a throw (or a rejected promise) goes to `onObserverError`. */
export type PlanModeObserver = (change: PlanModeChange) => void | Promise<void>;

export interface PlanModeOptions {
  /**
   * Where an observer's error goes (a throw, or the rejection of the promise it returned).
   * The latch and the other observers carry on either way.
   * @default writes the error to `console.error`
   */
  readonly onObserverError?: (error: unknown, change: PlanModeChange) => void;
}

/** What `toJSON()` writes and `PlanMode.from()` reads. */
export interface PlanModeJson {
  readonly version: 1;
  readonly state: PlanModeState;
  /** null when off; a string when executing; either while planning (a plan kept from before). */
  readonly plan: string | null;
}

const reportToConsole = (error: unknown): void => {
  console.error('planmode: a PlanMode observer threw:', error);
};

export class PlanMode {
  #state: PlanModeState = 'off';
  #plan: string | null = null;
  readonly #observers = new Set<{ readonly observer: PlanModeObserver }>();
  readonly #onObserverError: (error: unknown, change: PlanModeChange) => void;
  readonly #pending: PlanModeChange[] = [];
  #notifying = false;

  constructor(options: PlanModeOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanMode: options must be an object, not ${describeValue(options)}`);
    }
    checkOptions('PlanMode', options, PLAN_MODE_OPTIONS);
    const { onObserverError } = options;
    if (onObserverError !== undefined && typeof onObserverError !== 'function') {
      throw new TypeError(
        `PlanMode: onObserverError must be a function, not ${describeValue(onObserverError)}`,
      );
    }
    this.#onObserverError = onObserverError ?? reportToConsole;
  }

  /**
   * A latch in a saved state (from `toJSON()`, or its JSON text). Observers are not saved.
   * @throws {TypeError} saying what is wrong with the input.
   */
  static from(json: unknown, options: PlanModeOptions = {}): PlanMode {
    const saved = readJson(json);
    const latch = new PlanMode(options);
    latch.#state = saved.state;
    latch.#plan = saved.plan;
    return latch;
  }

  get state(): PlanModeState {
    return this.#state;
  }

  /** The plan passed to the last `exit()`; null when off or before any exit. */
  get plan(): string | null {
    return this.#plan;
  }

  get isPlanning(): boolean {
    return this.#state === 'planning';
  }

  /** off or executing -> planning. A plan from before is kept until the next `exit()`. */
  enter(): boolean {
    if (this.#state === 'planning') return false;
    this.#move('enter', 'planning', this.#plan);
    return true;
  }

  /**
   * planning -> executing with the approved plan. Asks no one: the `exit_plan_mode` tool is
   * where a person approves; this is the programmatic switch.
   * @throws {PlanModeTransitionError} when not planning.
   * @throws {TypeError} when `plan` is not a string.
   */
  exit(plan: string): void {
    if (typeof plan !== 'string') {
      throw new TypeError(`PlanMode.exit: the plan must be a string, not ${describeValue(plan)}`);
    }
    if (this.#state !== 'planning') {
      throw new PlanModeTransitionError(
        'exit',
        this.#state,
        `cannot exit plan mode: the latch is '${this.#state}', not 'planning'; call enter() first`,
      );
    }
    this.#move('exit', 'executing', plan);
  }

  /** Back to off, forgetting the plan. */
  reset(): boolean {
    if (this.#state === 'off') return false;
    this.#move('reset', 'off', null);
    return true;
  }

  /** Calls `observer` after every change; returns the function that stops it. */
  subscribe(observer: PlanModeObserver): () => void {
    if (typeof observer !== 'function') {
      throw new TypeError(
        `PlanMode.subscribe: the observer must be a function, not ${describeValue(observer)}`,
      );
    }
    const entry = { observer };
    this.#observers.add(entry);
    return () => {
      this.#observers.delete(entry);
    };
  }

  toJSON(): PlanModeJson {
    return { version: 1, state: this.#state, plan: this.#plan };
  }

  #move(action: PlanModeChange['action'], state: PlanModeState, plan: string | null): void {
    const previous = this.#state;
    this.#state = state;
    this.#plan = plan;
    this.#notify({ action, previous, state, plan });
  }

  // An observer that flips the latch gets its change queued behind the current one, so every
  // observer sees the changes in the order they happened.
  #notify(change: PlanModeChange): void {
    this.#pending.push(change);
    if (this.#notifying) return;
    this.#notifying = true;
    try {
      for (let i = 0; i < this.#pending.length; i++) {
        const current = this.#pending[i]!;
        for (const entry of [...this.#observers]) {
          if (this.#observers.has(entry)) this.#call(entry.observer, current);
        }
      }
    } finally {
      this.#pending.length = 0;
      this.#notifying = false;
    }
  }

  #call(observer: PlanModeObserver, change: PlanModeChange): void {
    try {
      const result = observer(change);
      if (result && typeof (result as Promise<void>).then === 'function') {
        (result as Promise<void>).then(undefined, (error: unknown) => this.#report(error, change));
      }
    } catch (error) {
      this.#report(error, change);
    }
  }

  #report(error: unknown, change: PlanModeChange): void {
    try {
      this.#onObserverError(error, change);
    } catch (secondError) {
      // The error handler failed too; the console is the last place left that is not silence.
      reportToConsole(secondError);
    }
  }
}

function readJson(json: unknown): PlanModeJson {
  const example = '{"version": 1, "state": "planning", "plan": null}';
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new TypeError(
        `PlanMode.from: the text is not JSON (${(error as Error).message}); expected ${example}`,
      );
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`PlanMode.from: expected an object like ${example}, not ${describeValue(value)}`);
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => k !== 'version' && k !== 'state' && k !== 'plan');
  if (unknown.length > 0) {
    throw new TypeError(`PlanMode.from: unknown key ${describeValue(unknown[0])}; expected ${example}`);
  }
  if (record.version !== 1) {
    throw new TypeError(`PlanMode.from: "version" must be 1, not ${describeValue(record.version)}`);
  }
  const { state, plan } = record;
  if (!PLAN_MODE_STATES.includes(state as PlanModeState)) {
    throw new TypeError(
      `PlanMode.from: "state" must be one of ${PLAN_MODE_STATES.join(', ')}, not ${describeValue(state)}`,
    );
  }
  if (plan !== null && typeof plan !== 'string') {
    throw new TypeError(`PlanMode.from: "plan" must be a string or null, not ${describeValue(plan)}`);
  }
  if (state === 'off' && plan !== null) {
    throw new TypeError(
      `PlanMode.from: "plan" must be null when the state is 'off' (reset forgets the plan)`,
    );
  }
  if (state === 'executing' && plan === null) {
    throw new TypeError(
      `PlanMode.from: "plan" must be a string when the state is 'executing' (exit needs a plan)`,
    );
  }
  return { version: 1, state: state as PlanModeState, plan };
}

/** Whether `value` is a latch (by shape, so a PlanMode from another copy of the package counts). */
export function isPlanModeLatch(value: unknown): value is PlanMode {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as PlanMode).isPlanning === 'boolean' &&
    typeof (value as PlanMode).subscribe === 'function' &&
    typeof (value as PlanMode).enter === 'function'
  );
}
