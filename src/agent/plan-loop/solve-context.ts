/**
 * The user message of one turn of the plan loop: the context messages of the plan language
 * (input, state with its schema, the previous plan), and what went wrong.
 *
 * Where the model stands is written into the plan message as comments before each call (how
 * it ended, whether an earlier result stood in for it, and what it returned or the error it
 * ended with, cut to a bounded excerpt: see solve-results.ts), so the model reads its position
 * the way a person would annotate a plan, next to the call itself. A comment cannot
 * be mistaken for plan syntax: a `_status` key would be an unknown meta key if the model copied
 * the plan back, while a copied comment is read as space (W_JSON_EXTENSION, a warning). The
 * whole context still parses as a planmode context.
 */
import type { JsonObject } from '../../language/document.js';
import type { CallStatus, CallReport } from '../../run/types.js';
import type { FailedCallRecord } from './solve-types.js';
import { failuresText, ResultAllowance, resultLines } from './solve-results.js';

export interface SolveContextParts {
  readonly input: JsonObject;
  readonly state: JsonObject;
  /** The state's JSON Schema, shown as the state message's `schema`. */
  readonly stateSchema: JsonObject | undefined;
  /** The calls of the previous solution, as the model wrote them. */
  readonly plan: readonly unknown[];
  /** How each call of `plan` ended, in the same order; null when the plan did not run. */
  readonly progress: readonly CallReport[] | null;
  readonly failures: readonly FailedCallRecord[];
  /** A sentence for the model (a person's feedback), or null. */
  readonly note: string | null;
}

/** The first line of the context block: tests and docs find the JSON after it. */
export const CONTEXT_HEADING =
  'Context (JSON; comments before each call of the plan say how it ended and what it returned):';

export function solveContextText(parts: SolveContextParts): string {
  const messages = [
    json({ type: 'input', ...parts.input }, 1),
    json({ type: 'state', ...parts.state, ...(parts.stateSchema && { schema: parts.stateSchema }) }, 1),
  ];
  if (parts.plan.length > 0) messages.push(planMessage(parts.plan, parts.progress));
  const text = [`${CONTEXT_HEADING}\n[\n${messages.join(',\n')}\n]`];
  if (parts.failures.length > 0) {
    text.push(`Calls of your last plan that did not succeed (JSON):\n${failuresText(parts.failures)}`);
  }
  if (parts.note) text.push(parts.note);
  return text.join('\n\n');
}

/**
 * The plan message; when the plan ran, comment lines before each call: how it ended, then its
 * result and its error, each on a line of its own.
 */
function planMessage(calls: readonly unknown[], progress: readonly CallReport[] | null): string {
  const pad = '      ';
  const allowance = new ResultAllowance();
  const lines = calls.map((call, k) => {
    const report = progress?.[k];
    const comments = report ? [progressText(report), ...resultLines(report, allowance)] : [];
    return comments.map((line) => `${pad}// ${line}\n`).join('') + json(call, 3);
  });
  return `  {\n    "type": "plan",\n    "plan": [\n${lines.join(',\n')}\n    ]\n  }`;
}

const STATUS_TEXT: Record<CallStatus, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skipped: a value it needed was never written',
  upstream_failed: 'not run: a call it needed failed',
  cancelled: 'cancelled',
  rejected: 'rejected by a person',
};

/** One line: the call's id and tool, and how it ended. */
function progressText(report: CallReport): string {
  const head = `call ${name(report.id)} (${name(report.tool)}): ${STATUS_TEXT[report.status]}`;
  if (report.reused) {
    return `${head}; not run again: it had already run with these arguments in an earlier turn, and that result was reused`;
  }
  if (report.status === 'failed' && report.handled) return `${head}; its error was written to the error path`;
  return head;
}

/**
 * An id or tool name as written when it is plain, else as a JSON string: an id the model wrote
 * with a line break in it cannot end the comment and write into the context.
 */
function name(text: string): string {
  return /^[\w.-]{1,100}$/.test(text) ? text : JSON.stringify(text);
}

/** Pretty JSON indented `level` steps of two spaces, the first line included. */
function json(value: unknown, level: number): string {
  const pad = '  '.repeat(level);
  return pad + JSON.stringify(value, null, 2).split('\n').join(`\n${pad}`);
}
