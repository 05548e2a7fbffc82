/**
 * The words of a todo plan: the system prompts of its three roles (planner, executor,
 * reflector) and the texts each request is built from. Each request is built afresh from the
 * plan as it stands, so what a model is shown is bounded (by the todos, the excerpts' lengths
 * and the tools offered), whatever the earlier conversations held.
 */
import type { ModelToolDefinition } from '../model.js';
import type { PlannedTodo } from './todo-plan-types.js';

export const TODO_PLANNER_PROMPT = [
  'You plan work as a list of todos. You get a goal and the tools that will be available.',
  'Answer with JSON only: {"todos": [{"id": "t1", "description": "...", "intent": "..."}, ...]}.',
  'Each todo is one step an agent can carry out with those tools in a few turns: the description',
  'says what to do, the intent why (what it contributes to the goal). Ids are short and unique',
  '(t1, t2, ...). List the todos in the order they should run, and no more than the goal needs.',
].join('\n');

export const TODO_EXECUTOR_PROMPT = [
  'You carry out one todo of a plan, with the tools you are offered.',
  'You get the goal, your todo with its intent, and the progress so far.',
  'Do this todo only: later todos get their own turn. When it is done, answer without calling',
  "tools: say briefly what you did and what you found. That answer is the todo's result.",
].join('\n');

export const TODO_REFLECTOR_PROMPT = [
  'You review the progress of a plan after each todo and decide what happens next.',
  'Answer with JSON only: {"action": ..., "changes": [...], "result": ...}.',
  '- "continue": the pending todos still fit; the next one runs. "changes": [], "result": null.',
  '- "revise": change the pending todos first. Each change is {"type", "id", "description",',
  '  "intent", "before"}: "add" a todo with a new id (before a pending todo, or null for the end),',
  '  "update" a pending todo\'s description or intent (null keeps it), or "remove" a pending todo.',
  '  Completed and failed todos cannot change.',
  '- "finish": the goal is reached, or cannot be: "result" is the final answer for the user.',
  '  Pending todos are then skipped.',
].join('\n');

/** Longest excerpt of a todo's output in a progress summary. */
const SUMMARY_EXCERPT = 500;
/** Longest excerpt of the output of the todo just done, in a reflection request. */
const LAST_OUTPUT_EXCERPT = 4_000;
/** Longest tool description shown to the planner. */
const TOOL_DESCRIPTION_EXCERPT = 200;
/** Most tools listed to the planner. */
const MAX_TOOLS_LISTED = 100;

/** The planner's request: the goal and the tools the todos will run with. */
export function goalText(goal: string, tools: readonly ModelToolDefinition[]): string {
  const listed = tools.slice(0, MAX_TOOLS_LISTED).map((tool) => {
    const about = summary(tool.description, TOOL_DESCRIPTION_EXCERPT);
    return `- ${excerpt(tool.name, 100)}${about === '' ? '' : `: ${about}`}`;
  });
  if (tools.length > MAX_TOOLS_LISTED) listed.push(`- and ${tools.length - MAX_TOOLS_LISTED} more`);
  return [
    `Goal: ${goal}`,
    listed.length > 0 ? `Tools the todos can use:\n${listed.join('\n')}` : 'The todos can use no tools.',
  ].join('\n\n');
}

/** The executor's request for one todo. */
export function todoText(goal: string, todo: PlannedTodo, todos: readonly PlannedTodo[]): string {
  return [
    `Goal: ${goal}`,
    `Your todo (${todo.id}): ${todo.description}\nIntent: ${todo.intent}`,
    `Progress so far:\n${progressText(todos)}`,
    'Carry out this todo only, then answer with what you did and found.',
  ].join('\n\n');
}

/** The reflector's request after a todo (or after a revision that left nothing pending). */
export function reflectionText(
  goal: string,
  todos: readonly PlannedTodo[],
  last: PlannedTodo | undefined,
  iteration: number,
  maxIterations: number,
): string {
  const parts = [`Goal: ${goal}`, `Todos:\n${progressText(todos)}`];
  if (last) {
    const outcome = last.status === 'failed' ? `failed: ${last.error ?? ''}` : 'completed';
    parts.push(
      `The todo just carried out (${last.id}) ${outcome}. Its result:\n${excerpt(last.result?.output ?? '', LAST_OUTPUT_EXCERPT) || '(no answer)'}`,
    );
  }
  parts.push(
    `This is reflection ${iteration} of at most ${maxIterations}: finish before they run out.`,
    'Decide: continue, revise or finish.',
  );
  return parts.join('\n\n');
}

/** The todos as a Markdown list, for a person to approve and for the plan-mode latch. */
export function todoListMarkdown(todos: readonly PlannedTodo[]): string {
  return todos.map((todo, i) => `${i + 1}. ${todo.description} (${todo.id}: ${todo.intent})`).join('\n');
}

/** Each todo with its status and the start of its result. */
function progressText(todos: readonly PlannedTodo[]): string {
  if (todos.length === 0) return '(no todos)';
  return todos
    .map((todo) => {
      const line = `- [${todo.status}] ${todo.id}: ${todo.description}`;
      if (todo.status === 'failed') return `${line}\n  failed: ${excerpt(todo.error ?? '', SUMMARY_EXCERPT)}`;
      const output = todo.result ? summary(todo.result.output, SUMMARY_EXCERPT) : '';
      return output === '' ? line : `${line}\n  result: ${output}`;
    })
    .join('\n');
}

function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The start of a text on one line; only the start is looked at, however long the text. */
function summary(text: string, max: number): string {
  return excerpt(
    text
      .slice(0, 2 * max)
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}
