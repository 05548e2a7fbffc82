/**
 * The todo list as a reminder the model sees before each turn (AgentScope's task list,
 * Claude Code's todo reminder): the whole current list, one line per item, so a long task
 * stays on the item in progress.
 *
 * It goes to the model as a `user` message at the end of the request, never into the
 * conversation itself: one reminder per request, always the current list, none piling up.
 * A user message, not a system one, because a system message is not part of the turn order
 * on every API: the Anthropic provider moves every system message into the one `system`
 * parameter, so a changing reminder there would rewrite the system prompt on each request
 * (no prompt caching) and sit far from the latest step. At the end, right after the last
 * tool results, it is the first thing the model reads on every provider.
 */
import type { UserMessage } from '../model.js';
import type { Todo } from './todos.js';

/** The first line of every reminder: how the model (and a test) tells it from the user's words. */
export const TODO_REMINDER_HEADING = 'Todos (a reminder of your current list; update it with todo_write):';

const MARKS: Readonly<Record<Todo['status'], string>> = {
  completed: '[x]',
  in_progress: '[>]',
  pending: '[ ]',
};

/** The reminder text for a list, or null for an empty list (nothing to remind of). */
export function todoReminderText(items: readonly Todo[]): string | null {
  if (items.length === 0) return null;
  return [TODO_REMINDER_HEADING, ...items.map((todo) => `${MARKS[todo.status]} ${todo.content}`)].join('\n');
}

/** The reminder as the message to add at the end of a request, or null for an empty list. */
export function todoReminder(items: readonly Todo[]): UserMessage | null {
  const content = todoReminderText(items);
  return content === null ? null : { role: 'user', content };
}
