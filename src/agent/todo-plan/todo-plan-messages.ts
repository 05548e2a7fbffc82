/**
 * gollem's plan message hook: what happens in a todo plan as typed messages, each tagged with
 * the todo it belongs to, handed to `hooks.onMessage` (awaited, in order, like every hook):
 *
 * - `system`: planmode's own notices: the todos were made, a todo started or ended, the plan
 *   ended (`todo` null for the plan-wide ones);
 * - `response`: what the model wrote in a todo's turn, handed on before each of its tool calls
 *   and at the turn's end;
 * - `action`: one tool call of a todo's turn, once it was answered: the call, how it ended and
 *   the result the model read;
 * - `thought`: a reflection: what it decided and the model's answer as written (`todo` is the
 *   todo it reflected on, null when none ran before it).
 */
import type { AgentEvent } from '../agent-events.js';
import type { ModelToolCall } from '../model.js';
import type { ReflectionAction } from './todo-plan-types.js';

export type TodoPlanMessage =
  | { readonly type: 'system'; readonly todo: string | null; readonly text: string }
  | { readonly type: 'response'; readonly todo: string; readonly text: string }
  | {
      readonly type: 'action';
      readonly todo: string;
      readonly call: ModelToolCall;
      /** How the call ended: succeeded, failed, denied or rejected. */
      readonly outcome: string;
      /** The result the model was given. */
      readonly result: string;
    }
  | {
      readonly type: 'thought';
      readonly todo: string | null;
      readonly action: ReflectionAction;
      readonly text: string;
    };

/** The kinds of message, for a switch over `message.type`. */
export const TODO_PLAN_MESSAGE_TYPES = ['system', 'response', 'action', 'thought'] as const;

/**
 * One todo's turn as messages: the text streamed in (`observe`, from the turn's events) is held
 * until the next tool call is answered or the turn ends, then handed on as a `response`. The
 * text held is the model's reply, bounded by the conversation's reply bound.
 */
export class TodoTurnMessages {
  #text = '';

  constructor(
    private readonly todo: string,
    private readonly tell: (message: TodoPlanMessage) => Promise<void>,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === 'text-delta') this.#text += event.text;
  }

  /** The text held so far, as a `response` (nothing when it is blank). */
  async flush(): Promise<void> {
    const text = this.#text;
    this.#text = '';
    if (text.trim() !== '') await this.tell({ type: 'response', todo: this.todo, text });
  }

  /** A tool call answered: the text before it, then the `action`. */
  async action(call: ModelToolCall, outcome: string, result: string): Promise<void> {
    await this.flush();
    await this.tell({ type: 'action', todo: this.todo, call, outcome, result });
  }
}
