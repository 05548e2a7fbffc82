/**
 * One LLMCompiler plan, line by line, in the planner's own prompt style:
 *
 *     Question: <task, possibly over several lines>
 *     1. search("Mount Everest")
 *     Thought: <dropped>
 *     2. math("half of Mount Everest height in meter?", ["$1"])
 *     3. join()<END_OF_PLAN>
 *
 * Steps count 1, 2, 3, ... once each; `join()` or `<END_OF_PLAN>` ends the plan. A line that is
 * none of these is not imported, with a warning; a step that cannot be read fails the plan.
 */
import { stepCall, type StepWarningCode } from './step-call.js';

/** A line of a plan, with where it is for messages. */
export interface PlanLine {
  readonly text: string;
  /** 1-based line in the data file (for a JSONL row, the row's line). */
  readonly line: number;
  /** How messages name the line: `line 12`, or `plan line 3` inside a JSONL row. */
  readonly name: string;
}

export interface ReadPlanOptions {
  readonly parameters: ReadonlyMap<string, readonly string[]>;
  /** Deepest nesting of brackets in a step's arguments. */
  readonly maxDepth: number;
  /** Most steps in one plan, `join()` included. */
  readonly maxSteps: number;
  /** Longest step line, in characters. */
  readonly maxStepLength: number;
  readonly warn: (code: StepWarningCode, message: string, line: number, hint?: string) => void;
}

export type ReadPlanResult =
  | { readonly ok: true; readonly question: string | undefined; readonly calls: readonly unknown[] }
  | { readonly ok: false; readonly line: number; readonly message: string; readonly hint?: string };

const STEP_START = /^[ \t]*(\d{1,9})\.[ \t]+/;
const TOOL_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const END_OF_PLAN = '<END_OF_PLAN>';

/** Reads one plan's lines into planmode calls; `firstLine` is where the plan starts, for messages. */
export function readPlan(
  lines: Iterable<PlanLine>,
  firstLine: number,
  options: ReadPlanOptions,
): ReadPlanResult {
  const question: string[] = [];
  const calls: unknown[] = [];
  let steps = 0;
  let inQuestion = false;
  let ended = false;
  for (const planLine of lines) {
    // Steps keep their indent, so columns count from the line's start.
    const text = planLine.text.trimEnd();
    const trimmed = text.trimStart();
    if (trimmed === '' || (ended && trimmed === END_OF_PLAN)) continue;
    if (ended) {
      options.warn(
        'W_IMPORT_UNSUPPORTED',
        `${planLine.name}: text after the end of the plan (join() or ${END_OF_PLAN}) is not imported`,
        planLine.line,
      );
      break;
    }
    if (trimmed.startsWith('Question:')) {
      if (question.length > 0 || steps > 0) {
        return fail(planLine, `a second Question: in one plan`, 'separate plans with a line ###');
      }
      question.push(trimmed.slice('Question:'.length).trim());
      inQuestion = true;
      continue;
    }
    if (trimmed.startsWith('Thought:')) {
      inQuestion = false;
      continue;
    }
    if (trimmed === END_OF_PLAN) {
      ended = true;
      continue;
    }
    const start = STEP_START.exec(text);
    if (!start) {
      if (inQuestion) question.push(trimmed);
      else {
        options.warn(
          'W_IMPORT_UNSUPPORTED',
          `${planLine.name} is not a step, a Question: or a Thought: line; it is not imported`,
          planLine.line,
        );
      }
      continue;
    }
    inQuestion = false;
    const number = Number(start[1]);
    if (number !== steps + 1) {
      return fail(
        planLine,
        `step ${number} where step ${steps + 1} was expected`,
        'number the steps 1, 2, 3, ... in order, each once',
      );
    }
    if (number > options.maxSteps) return fail(planLine, `the plan has more than ${options.maxSteps} steps`);
    if (text.length > options.maxStepLength) {
      return fail(planLine, `step ${number} is longer than ${options.maxStepLength} characters`);
    }
    steps = number;
    TOOL_NAME.lastIndex = start[0].length;
    const tool = TOOL_NAME.exec(text)?.[0];
    const open = start[0].length + (tool?.length ?? 0);
    if (tool === undefined || text[open] !== '(') {
      return fail(
        planLine,
        `step ${number} is not a call tool(arguments)`,
        'write a step as: 1. search("query")',
      );
    }
    const read = stepCall(
      { number, tool, text, argsStart: open + 1 },
      {
        parameters: options.parameters,
        maxDepth: options.maxDepth,
        warn: (code, message, hint) => options.warn(code, message, planLine.line, hint),
      },
    );
    if (!read.ok) return fail(planLine, `${read.message}`, read.hint, read.column);
    const rest = text.slice(read.end).trimStart();
    if (rest.startsWith(END_OF_PLAN)) {
      ended = true;
      if (rest.length > END_OF_PLAN.length) {
        return fail(
          planLine,
          `text after ${END_OF_PLAN}`,
          undefined,
          text.length - rest.length + END_OF_PLAN.length + 1,
        );
      }
    } else if (rest !== '' && !rest.startsWith('#')) {
      return fail(
        planLine,
        `text after the call's ')'`,
        'a step is one call; a comment after it starts with #',
        text.length - rest.length + 1,
      );
    }
    if (read.call === undefined) ended = true;
    else calls.push(read.call);
  }
  if (steps === 0) return { ok: false, line: firstLine, message: 'the plan has no steps' };
  return { ok: true, question: question.length > 0 ? question.join('\n') : undefined, calls };
}

function fail(planLine: PlanLine, message: string, hint?: string, column?: number): ReadPlanResult {
  const where = column === undefined ? planLine.name : `${planLine.name}, column ${column}`;
  return { ok: false, line: planLine.line, message: `${where}: ${message}`, ...(hint ? { hint } : {}) };
}
