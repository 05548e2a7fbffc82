/**
 * Where the plan loop starts: the task's input, the initial state and its schema, the plan the
 * model is shown first, and the tools it is offered, from solve()'s options. A `context` in the
 * plan language (as written by hand: tool, input, state and plan messages, comments
 * and all) gives each of these; the options override it. What the caller passes is checked
 * here, once, before the model is asked anything: a bad value is a TypeError naming the option
 * and, for a context or schema, every problem with its line and column.
 */
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { compile } from '../../compile/compile.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { ExecutionMode, JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import { parseContext } from '../../language/parse/index.js';
import type { JsonSchema, Tool } from '../../tools/tool.js';
import { describeValue } from '../../language/describe-value.js';
import type { Message } from '../model.js';
import type { SolveOptions } from './solve-types.js';

export interface SolveStart {
  readonly input: JsonObject;
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
  /** The calls the first request shows as the previous plan (the context's plan message). */
  readonly plan: readonly unknown[];
  /** The context's mode (its plan message's), else eager. */
  readonly mode: ExecutionMode;
  /** The tools the context's tool messages name: the model is offered only these. Null: all. */
  readonly toolNames: ReadonlySet<string> | null;
  /** The final answer's schema: the outputSchema option's, or a request context's. */
  readonly outputSchema: JsonSchema | undefined;
}

const WHERE = 'PlanAgent.solve';

/** @throws {TypeError} naming the option, for a context or state schema that cannot be used. */
export function solveStart(
  task: string | Record<string, unknown>,
  options: SolveOptions,
  tools: readonly Tool[],
  limits: Partial<Limits> | undefined,
): SolveStart {
  const taskInput: JsonObject = typeof task === 'string' ? { task } : (task as JsonObject);
  let input = taskInput;
  let state: JsonObject = options.state ?? {};
  let stateSchema = options.stateSchema;
  let plan: readonly unknown[] = [];
  let mode: ExecutionMode = 'eager';
  let toolNames: ReadonlySet<string> | null = null;
  let outputSchema = options.outputSchema;
  if (options.context !== undefined) {
    const parsed = parseContext(options.context, { source: 'context', ...(limits && { limits }) });
    const document = parsed.document;
    if (!document) throw new TypeError(problems('the context option', parsed.diagnostics));
    if (document.stateSchema && options.stateSchema) {
      throw new TypeError(
        `${WHERE}: the context's state message has a schema, and so does the stateSchema option; give it once`,
      );
    }
    if (document.schema !== undefined && options.outputSchema !== undefined) {
      throw new TypeError(
        `${WHERE}: the context is a request with a schema, and the outputSchema option gives one too; give it once`,
      );
    }
    input = { ...document.input, ...taskInput };
    state = { ...document.state, ...options.state };
    // The context must make sense with what the model will have: its tool messages name tools
    // that exist, its plan compiles, its state schema is usable.
    const checked = compile(document, { tools, input, state, ...(limits && { limits }) });
    if (!checked.ok) throw new TypeError(problems('the context option', checked.diagnostics));
    stateSchema ??= document.stateSchema;
    plan = document.calls;
    mode = document.mode;
    if (document.tools) toolNames = new Set(document.tools.map((t) => t.name));
    // A request's schema was checked by the compile above (E_OUTPUT_SCHEMA).
    if (document.outputSchema !== undefined) outputSchema = document.outputSchema;
  }
  if (options.stateSchema !== undefined) {
    // Checked as the compiler will check it in every solution: within the limits, its patterns usable.
    const checked = compile([], { stateSchema: options.stateSchema, ...(limits && { limits }) });
    if (!checked.ok) throw new TypeError(problems('the stateSchema option', checked.diagnostics));
  }
  return { input, state, stateSchema, plan, mode, toolNames, outputSchema };
}

/** Checks solve()'s options. @throws {TypeError} naming the option and the bad value. */
const SOLVE_OPTIONS = optionKeys<SolveOptions>({
  mode: true,
  streamCalls: true,
  maxIterations: true,
  maxRepairs: true,
  budget: true,
  maxReplyBytes: true,
  outputSchema: true,
  state: true,
  stateSchema: true,
  context: true,
  history: true,
  systemPrompt: true,
  approve: true,
  maxEditRetries: true,
  concurrency: true,
  timeoutMs: true,
  strict: true,
  limits: true,
  session: true,
  limiter: true,
});

export function checkSolveOptions(task: unknown, options: SolveOptions): void {
  if (typeof task !== 'string' && (task === null || typeof task !== 'object' || Array.isArray(task))) {
    throw new TypeError(`${WHERE}: the input must be a string or an object, not ${describeValue(task)}`);
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${WHERE}: options must be an object, not ${describeValue(options)}`);
  }
  rejectUnknownOptions(WHERE, options, SOLVE_OPTIONS);
  if (options.mode !== undefined && options.mode !== 'eager' && options.mode !== 'lazy') {
    throw new TypeError(`${WHERE}: mode must be 'eager' or 'lazy', not ${describeValue(options.mode)}`);
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError(`${WHERE}: strict must be true or false, not ${describeValue(options.strict)}`);
  }
  for (const [name, least] of [
    ['maxIterations', 1],
    ['maxRepairs', 0],
    ['maxReplyBytes', 1],
  ] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < least)) {
      throw new TypeError(
        `${WHERE}: ${name} must be a whole number >= ${least}, not ${describeValue(value)}`,
      );
    }
  }
  if (options.approve !== undefined && typeof options.approve !== 'function') {
    throw new TypeError(`${WHERE}: approve must be a function, not ${describeValue(options.approve)}`);
  }
  const { stateSchema, systemPrompt, context, history } = options;
  if (
    stateSchema !== undefined &&
    (stateSchema === null || typeof stateSchema !== 'object' || Array.isArray(stateSchema))
  ) {
    throw new TypeError(
      `${WHERE}: stateSchema must be a JSON Schema object, not ${describeValue(stateSchema)}`,
    );
  }
  if (systemPrompt !== undefined && (typeof systemPrompt !== 'string' || systemPrompt.trim() === '')) {
    throw new TypeError(
      `${WHERE}: systemPrompt must be a non-empty string, not ${describeValue(systemPrompt)}`,
    );
  }
  if (
    context !== undefined &&
    typeof context !== 'string' &&
    !Array.isArray(context) &&
    (context === null || typeof context !== 'object')
  ) {
    throw new TypeError(
      `${WHERE}: context must be the text or the array of a context ([{"type": "input", ...}, ...]), or a request {"schema": ..., "context": [...]}, not ${describeValue(context)}`,
    );
  }
  if (history !== undefined) checkHistory(history);
}

/**
 * The history is sent before every request's context. Its requests offer no tools, so a turn
 * with tool calls or a tool result would be refused by providers: such turns are refused here,
 * where the caller can still say their outcome in text.
 */
function checkHistory(history: unknown): void {
  if (!Array.isArray(history)) {
    throw new TypeError(`${WHERE}: history must be an array of messages, not ${describeValue(history)}`);
  }
  history.forEach((message: unknown, index) => {
    const m = message as Partial<Message> | null;
    const where = `${WHERE}: history[${index}]`;
    if (m === null || typeof m !== 'object' || typeof m.content !== 'string') {
      throw new TypeError(
        `${where} must be a message {role, content} with text content, not ${describeValue(message)}`,
      );
    }
    if (m.role === 'tool' || (m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0)) {
      throw new TypeError(
        `${where} is a tool call or tool result; the plan loop's requests offer no tools, so give their outcome as text`,
      );
    }
    if (m.role !== 'system' && m.role !== 'user' && m.role !== 'assistant') {
      throw new TypeError(
        `${where}: role must be 'system', 'user' or 'assistant', not ${describeValue(m.role)}`,
      );
    }
  });
}

/** `<what> cannot be used:` and each error as `line:column CODE: message (hint)`. */
function problems(what: string, diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const lines = errors.slice(0, 10).map((d) => {
    const hint = d.hint ? ` (${d.hint})` : '';
    return `  ${d.line}:${d.column} ${d.code}: ${d.message}${hint}`;
  });
  const more = errors.length > 10 ? [`  and ${errors.length - 10} more`] : [];
  return [`${WHERE}: ${what} cannot be used:`, ...lines, ...more].join('\n');
}
