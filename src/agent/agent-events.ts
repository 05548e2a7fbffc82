/** What a PlanAgent reports while it works: one event type per thing a UI shows. */
import type { CompiledPlan } from '../compile/types.js';
import type { PermissionDenial } from '../errors.js';
import type { RunEvent, RunResult } from '../run/types.js';
import type { Simulation } from '../simulate/types.js';
import type { ModelToolCall, ToolResultMessage } from './model.js';

/** plan(): read-only tools and exit_plan; execute(): every tool; solve(): the plan loop. */
export type AgentPhase = 'plan' | 'execute' | 'solve';

/** How one tool call of the model's ended. */
export type ToolCallOutcome = 'succeeded' | 'failed' | 'denied' | 'rejected' | 'plan-submitted';

export type AgentEvent =
  | { readonly type: 'text-delta'; readonly phase: AgentPhase; readonly text: string }
  | { readonly type: 'tool-call'; readonly phase: AgentPhase; readonly call: ModelToolCall }
  | {
      readonly type: 'tool-result';
      readonly phase: AgentPhase;
      readonly call: ModelToolCall;
      readonly outcome: ToolCallOutcome;
      readonly result: ToolResultMessage;
      /** When the call was denied or rejected: the tool, the latch's state and the cause, as data. */
      readonly denial?: PermissionDenial;
    }
  /**
   * A model turn failed after some of its tool calls had arrived (a reply bound, a broken
   * stream, the signal, or an answer that threw); `error` is thrown next. Each call starts as
   * soon as its arguments are complete, so some may have run: `ran` were answered (their
   * `tool-result` events came before this one, and they are in the conversation with their
   * results), `notRun` arrived but never started. A call whose own answer threw (then `error`)
   * is in neither.
   */
  | {
      readonly type: 'turn-failed';
      readonly phase: AgentPhase;
      readonly error: unknown;
      readonly ran: readonly ModelToolCall[];
      readonly notRun: readonly ModelToolCall[];
    }
  /** solve(): the model's solution compiled (after `repairs` rounds of diagnostics). */
  | {
      readonly type: 'solution';
      readonly phase: 'solve';
      readonly iteration: number;
      readonly plan: CompiledPlan;
      readonly calls: readonly unknown[];
      readonly output: unknown;
      readonly repairs: number;
    }
  /** solve(), lazy: the dry run shown before asking. */
  | { readonly type: 'simulation'; readonly phase: 'solve'; readonly simulation: Simulation }
  /** solve(): an event of the run of a solution's calls (for a live view). */
  | { readonly type: 'run'; readonly phase: 'solve'; readonly iteration: number; readonly event: RunEvent }
  /**
   * solve(), eager: a reply whose calls had started while it streamed turned out not to be a
   * solution. No more of its calls start; those running are awaited, then its `run-end` comes.
   */
  | { readonly type: 'halt'; readonly phase: 'solve'; readonly iteration: number }
  | {
      readonly type: 'run-end';
      readonly phase: 'solve';
      readonly iteration: number;
      readonly result: RunResult;
    }
  | { readonly type: 'done'; readonly phase: AgentPhase; readonly status: string }
  | { readonly type: 'error'; readonly phase: AgentPhase; readonly error: unknown };

export type AgentEventListener = (event: AgentEvent) => void;
