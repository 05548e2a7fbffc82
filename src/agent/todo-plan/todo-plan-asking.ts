/**
 * How a todo plan asks its model: one structured answer (the todo list, a reflection), sent
 * back with what is wrong with it until it can be read or the repairs run out, and the system
 * messages every request of the plan starts with. Shared by planTodos() (the todo list) and
 * TodoPlan (the reflections and each todo's turn).
 */
import { complete } from '../complete.js';
import type { Message, ResponseFormat } from '../model.js';
import type { TodoPlanRuntime } from './todo-plan-options.js';
import type { TodoPlanExchange } from './todo-plan-types.js';

/** What asking needs of a plan's runtime: the model, the signal and the bounds. */
export type AskingRuntime = Pick<
  TodoPlanRuntime<unknown>,
  'provider' | 'signal' | 'maxRepairs' | 'systemPrompt' | 'history'
>;

/**
 * One structured answer, sent back with what is wrong with it up to `maxRepairs` times.
 * @returns what `read` made of the answer, or the last problem when no answer could be read.
 */
export async function ask<T>(
  runtime: AskingRuntime,
  messages: Message[],
  format: ResponseFormat,
  read: (text: string) => T | string,
): Promise<T | string> {
  for (let repairs = 0; ; repairs++) {
    const turn = await complete(runtime.provider, {
      messages: [...messages],
      tools: [],
      responseFormat: format,
      ...(runtime.signal && { signal: runtime.signal }),
    });
    const text = turn.message.content;
    messages.push({ role: 'assistant', content: text });
    const answer = read(text);
    if (typeof answer !== 'string' || repairs >= runtime.maxRepairs) return answer;
    messages.push({ role: 'user', content: `${answer} Answer again with the whole JSON object.` });
  }
}

/** What every request of the plan starts with: the system messages, then the `history` option's. */
export function systemMessages(runtime: AskingRuntime, prompt: string): Message[] {
  return [
    ...(runtime.systemPrompt === undefined
      ? []
      : [{ role: 'system' as const, content: runtime.systemPrompt }]),
    { role: 'system', content: prompt },
    ...runtime.history,
  ];
}

/** The exchange in which the todos were made: the first of a plan's history. */
export function createExchange(messages: readonly Message[]): TodoPlanExchange {
  return { phase: 'create', todo: null, messages: [...messages] };
}
