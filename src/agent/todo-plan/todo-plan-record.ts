/**
 * What a todo plan keeps of a todo's turn: the tool calls and their outputs, and the
 * conversation for its history. Arguments come from the model and outputs from tools, so
 * each is copied as JSON within the limits before it is kept: whatever the plan holds, its
 * `toJSON()` can write and `TodoPlan.from()` will read back. A value that is not JSON within
 * the limits is left out (an output) or kept as null (arguments), never kept as it came.
 */
import { copyJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import type { GuardedCallResult } from '../plan-mode/index.js';
import type { AssistantMessage, Message, ModelToolCall } from '../model.js';
import type { TodoToolCall } from './todo-plan-types.js';

/** The tool calls of one todo's turn, recorded as they are answered. */
export class ToolCallRecorder {
  readonly calls: TodoToolCall[] = [];
  readonly #outputs: [string, unknown][] = [];
  readonly #limits: Limits;

  constructor(limits: Limits) {
    this.#limits = limits;
  }

  record(call: ModelToolCall, result: GuardedCallResult): void {
    const args = copyJson(call.arguments, { limits: this.#limits });
    this.calls.push({
      id: call.id,
      name: call.name,
      arguments: 'problem' in args ? null : (args.value as Record<string, unknown>),
      outcome: result.status,
    });
    if (result.status !== 'succeeded' || result.output === undefined) return;
    const output = copyJson(result.output, { limits: this.#limits });
    if (!('problem' in output) && output.value !== undefined) this.#outputs.push([call.id, output.value]);
  }

  /** The outputs of the calls that succeeded, by call id (a model's id may be any string). */
  data(): Record<string, unknown> {
    // fromEntries defines own properties: an id of "__proto__" is a key, not a prototype.
    return Object.fromEntries(this.#outputs);
  }
}

/** A conversation as the plan's history keeps it: tool-call arguments copied within the limits. */
export function historyMessages(messages: readonly Message[], limits: Limits): Message[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || !message.toolCalls) return { ...message };
    const toolCalls = message.toolCalls.map((call): ModelToolCall => {
      const args = copyJson(call.arguments, { limits });
      if (!('problem' in args)) return { ...call, arguments: args.value as Record<string, unknown> };
      return { ...call, arguments: {}, argumentsError: `not kept: the arguments ${args.problem.message}` };
    });
    return { ...message, toolCalls } satisfies AssistantMessage;
  });
}
