/**
 * LLMCompiler's plans to planmode samples. The data file is either LLMCompiler's own prompt
 * text (plans separated by lines `###`, each led by `Question: <task>`) or JSONL, one
 * `{"id"?, "question"|"task"?, "plan": "<plan text>"}` per line: a file whose first non-blank
 * character is `{` is JSONL. The tools file (`spec`) is a planmode JSON manifest; every sample's
 * manifest is that file's tools.
 */
import { DEFAULT_LIMITS } from '../../language/index.js';
import type { ImportCode, ImportedSample, ImportProblem, ImportResult } from '../types.js';
import { LineCursor } from './line-cursor.js';
import { type PlanLine, readPlan } from './plan-lines.js';
import {
  fileError,
  isSafeId,
  pastLimitError,
  type ReaderOptions,
  rowError,
  SampleIds,
} from '../reader/index.js';
import { type LlmcompilerTools, readToolsFile } from './tools-file.js';

/** Bounds on one plan, past which it is an `E_IMPORT_ROW` error rather than work. */
export const LLMCOMPILER_LIMITS = {
  /** Most steps in one plan, `join()` included. */
  maxSteps: 10_000,
  /** Longest step line, in characters. */
  maxStepLength: 1_048_576,
  /** Deepest nesting of brackets in a step's arguments: one less than a call may nest in planmode. */
  maxDepth: DEFAULT_LIMITS.maxDepth - 1,
  /** Most warnings kept per sample; the rest are counted in a last one. */
  maxWarnings: 100,
} as const;

/** One plan as found in the data file, before it is read. */
interface RawSample {
  readonly line: number;
  /** The plan's lines, read as they are consumed. */
  readonly lines: Iterable<PlanLine>;
  readonly id?: unknown;
  readonly task?: string;
  /** Why the row cannot be read at all (JSONL: not a row object). */
  readonly problem?: { readonly message: string; readonly hint?: string };
}

/** Reads LLMCompiler's plans (prompt text or JSONL) with their tools file. */
export function importLlmcompiler(text: string, options: ReaderOptions): ImportResult {
  if (options.spec === undefined) {
    return fileError(
      'llmcompiler',
      'the llmcompiler format needs its tools file: --spec FILE (options.spec in the library)',
      'spec',
      'give a JSON manifest {"tools": [{"name", "inputSchema": {"properties": ...}}]}; arguments follow the order of the properties',
    );
  }
  const tools = readToolsFile(options.spec);
  if ('problem' in tools) return fileError('llmcompiler', tools.problem, 'spec');
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: ImportProblem[] = [];
  const samples: ImportedSample[] = [];
  const ids = new SampleIds();
  let count = 0;
  let pastLimit: { line: number } | undefined;
  const raws = body[body.search(/\S/)] === '{' ? jsonlSamples(body) : textSamples(body);
  for (const raw of raws) {
    count += 1;
    const wantedId = isSafeId(raw.id) ? raw.id : `${options.idPrefix}-${count}`;
    if (count > options.maxSamples) {
      // One error for all of them: a file of millions of samples must not make millions of errors.
      pastLimit ??= { line: raw.line };
      continue;
    }
    if (raw.problem) {
      errors.push(rowError(raw.line, wantedId, raw.problem.message, raw.problem.hint));
      continue;
    }
    const sample = readSample(raw, wantedId, tools, options, ids);
    if ('problem' in sample) errors.push(sample.problem);
    else samples.push(sample);
  }
  if (pastLimit) errors.push(pastLimitError(pastLimit.line, options.maxSamples, count - options.maxSamples));
  return { format: 'llmcompiler', samples, errors };
}

function readSample(
  raw: RawSample,
  wantedId: string,
  tools: LlmcompilerTools,
  options: ReaderOptions,
  ids: SampleIds,
): ImportedSample | { problem: ImportProblem } {
  const found: { code: ImportCode; message: string; line: number; hint?: string }[] = [];
  let dropped = 0;
  const warn = (code: ImportCode, message: string, line: number, hint?: string): void => {
    if (found.length < LLMCOMPILER_LIMITS.maxWarnings)
      found.push({ code, message, line, ...(hint ? { hint } : {}) });
    else dropped += 1;
  };
  if (raw.id !== undefined && !isSafeId(raw.id)) {
    warn(
      'W_IMPORT_UNSUPPORTED',
      `the row's id ${describeId(raw.id)} is not a safe folder name; the sample is named ${wantedId}`,
      raw.line,
      'an id is 1 to 100 of A-Z a-z 0-9 . _ -, and not . or ..',
    );
  }
  const plan = readPlan(raw.lines, raw.line, { parameters: tools.parameters, ...LLMCOMPILER_LIMITS, warn });
  if (!plan.ok) return { problem: rowError(plan.line, wantedId, plan.message, plan.hint) };
  const { id, renamed } = ids.claim(wantedId);
  if (renamed) {
    warn(
      'W_IMPORT_DUPLICATE_ID',
      `the id ${wantedId} is taken by an earlier sample; this one is ${id}`,
      raw.line,
    );
  }
  const task = raw.task ?? plan.question;
  if (raw.task !== undefined && plan.question !== undefined && plan.question !== raw.task) {
    warn(
      'W_IMPORT_UNSUPPORTED',
      `the plan's Question: line differs from the row's task; the row's is kept`,
      raw.line,
    );
  }
  if (dropped > 0)
    found.push({ code: 'W_IMPORT_UNSUPPORTED', message: `and ${dropped} more warnings`, line: raw.line });
  const warnings = found.map((w): ImportProblem => ({ severity: 'warning', ...w, sample: id, file: 'data' }));
  const planMessage = { type: 'plan', mode: options.mode, plan: plan.calls };
  return {
    id,
    ...(task !== undefined ? { task } : {}),
    plan: task !== undefined ? [{ type: 'input', task }, planMessage] : [planMessage],
    tools: tools.manifest,
    line: raw.line,
    warnings,
  };
}

/** LLMCompiler's prompt style: plans separated by lines `###`. */
function* textSamples(body: string): Generator<RawSample> {
  const cursor = new LineCursor(body, { separators: true, lineOf: (n) => n, nameOf: (n) => `line ${n}` });
  for (let first = cursor.nextPlan(); first !== undefined; first = cursor.nextPlan()) {
    yield { line: first.line, lines: cursor.lines() };
  }
}

/** JSONL: one `{"id"?, "question"|"task"?, "plan"}` object per line. */
function* jsonlSamples(body: string): Generator<RawSample> {
  const rows = new LineCursor(body, { separators: false, lineOf: (n) => n, nameOf: (n) => `line ${n}` });
  for (let next = rows.nextLine(); next !== undefined; next = rows.nextLine()) {
    const line = next.line;
    const row = jsonRow(next.text);
    if ('problem' in row) {
      yield { line, lines: [], problem: { message: row.problem, ...(row.hint ? { hint: row.hint } : {}) } };
      continue;
    }
    const plan = new LineCursor(row.plan, {
      separators: false,
      lineOf: () => line,
      nameOf: (n) => `plan line ${n}`,
    });
    plan.nextPlan();
    yield {
      line,
      lines: plan.lines(),
      ...(row.id !== undefined ? { id: row.id } : {}),
      ...(row.task !== undefined ? { task: row.task } : {}),
    };
  }
}

function jsonRow(
  text: string,
): { id?: unknown; task?: string; plan: string } | { problem: string; hint?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return { problem: `not a JSON object: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'not a JSON object' };
  const row = value as Record<string, unknown>;
  if (typeof row.plan !== 'string') {
    return {
      problem: `"plan" must be the plan's text`,
      hint: '{"id": "q1", "question": "...", "plan": "1. search(\\"x\\")\\n2. join()"}',
    };
  }
  if (row.question !== undefined && row.task !== undefined)
    return { problem: 'give "question" or "task", not both' };
  const task = row.question ?? row.task;
  if (task !== undefined && typeof task !== 'string')
    return { problem: `"question"/"task" must be a string` };
  // A whole-number id names a folder as well as its digits do.
  const id = typeof row.id === 'number' && Number.isSafeInteger(row.id) ? String(row.id) : row.id;
  return {
    plan: row.plan,
    ...(id !== undefined ? { id } : {}),
    ...(task !== undefined ? { task } : {}),
  };
}

/** A row's id for a message: a string clipped, anything else by its kind (never walked: it may nest deep). */
function describeId(value: unknown): string {
  if (typeof value !== 'string')
    return Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
