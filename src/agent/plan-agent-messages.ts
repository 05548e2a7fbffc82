/**
 * The messages PlanAgent reads and writes around a conversation: the planning prompt added
 * once, the caller's array checked, tool results and what the model reads when its plan is
 * not approved, and the text of the last assistant turn.
 */
import { describeValue } from '../language/describe-value.js';
import type { ToolAnswer } from './conversation.js';
import type { Message, ModelToolCall } from './model.js';

/**
 * Adds the planning prompt after the caller's own system messages, unless this conversation
 * has it already (a second plan() on the same array, or a resumed one): never twice.
 */
export function injectSystemPromptOnce(messages: Message[], prompt: string): void {
  if (messages.some((m) => m.role === 'system' && m.content === prompt)) return;
  let at = 0;
  while (at < messages.length && messages[at]!.role === 'system') at++;
  messages.splice(at, 0, { role: 'system', content: prompt });
}

export function checkMessages(messages: unknown, method: string): asserts messages is Message[] {
  if (!Array.isArray(messages)) {
    throw new TypeError(
      `PlanAgent.${method}: messages must be an array of messages, not ${describeValue(messages)}`,
    );
  }
}

export function toolResult(call: ModelToolCall, content: string, isError: boolean): ToolAnswer['message'] {
  return { role: 'tool', toolCallId: call.id, name: call.name, content, ...(isError && { isError: true }) };
}

/** What the model reads when its plan is not approved: the feedback, and that it still plans. */
export function rejectionText(feedback: string | undefined, next: string): string {
  return `The plan was not approved.${feedback ? ` Feedback: ${feedback}` : ''} You are still in plan mode: revise the plan and ${next}.`;
}

/**
 * The text of the conversation's last assistant turn (`skipEmpty`: the last one that said
 * something). A walk back over the caller's array, one message at a time. Not for a tool call's
 * answer: converse adds a turn only once it is whole, after its calls started.
 */
export function lastAssistantText(messages: readonly Message[], skipEmpty = false): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    if (!skipEmpty || message.content.trim() !== '') return message.content;
  }
  return '';
}

export function notRun(call: ModelToolCall, why: string): Promise<ToolAnswer> {
  return Promise.resolve({ outcome: 'failed', message: toolResult(call, `Not run: ${why}.`, true) });
}
