/**
 * One LLMCompiler step, `2. math("half of $1", ["$1"])`, to one planmode call:
 * `{"_id": "call2", "_tool": "math", "problem": "half of $1", "context": ["†state.call1"],
 * "_after": ["call1"], "_outputPath": "†state.call2"}`. Positional arguments take the names of
 * the tool's `inputSchema.properties` in order; `"$1"` (or `"${1}"`) as a whole string is a
 * reference to step 1's output; `$1` inside a longer string stays text, and `_after` keeps the
 * order LLMCompiler's own dependency rule (any `$N` in the arguments) gives.
 */
import { setOwnProperty } from '../../language/json/index.js';
import { clip, planReference } from '../reader/index.js';
import { type LiteralValue, readCallArguments, type StringPlace } from './python-literal.js';

/** A step line, found by the plan reader. */
export interface StepLine {
  /** The step's number as written (and its position: steps count 1, 2, 3, ...). */
  readonly number: number;
  readonly tool: string;
  /** The whole line. */
  readonly text: string;
  /** Offset in `text` just past the call's `(`. */
  readonly argsStart: number;
}

export interface StepCallOptions {
  /** Each tool's argument names in order; a tool not in it gets `arg1`, `arg2`, ... */
  readonly parameters: ReadonlyMap<string, readonly string[]>;
  /** Deepest nesting of brackets in the arguments. */
  readonly maxDepth: number;
  /** Says what the step could not carry over (a warning). */
  readonly warn: (code: StepWarningCode, message: string, hint?: string) => void;
}

export type StepWarningCode =
  'W_IMPORT_EMBEDDED_REFERENCE' | 'W_IMPORT_UNKNOWN_REFERENCE' | 'W_IMPORT_UNSUPPORTED';

export type StepCallResult =
  | { readonly ok: true; readonly call: Record<string, unknown> | undefined; readonly end: number }
  | { readonly ok: false; readonly column: number; readonly message: string; readonly hint?: string };

const WHOLE_REFERENCE = /^\$(?:(\d{1,9})|\{(\d{1,9})\})$/;

/**
 * Reads the step's arguments and builds its call (`undefined` for `join()`, which ends the plan).
 * `end` is the offset just past the call's `)`.
 */
export function stepCall(step: StepLine, options: StepCallOptions): StepCallResult {
  const after = new Set<string>();
  const unknown = new Set<string>();
  const onString = (text: string, place: StringPlace): LiteralValue => {
    const whole = place === 'value' ? WHOLE_REFERENCE.exec(text) : null;
    if (whole) {
      const producer = Number(whole[1] ?? whole[2]);
      if (producer >= 1 && producer < step.number) return planReference(`call${producer}`);
      unknown.add(text);
      return text;
    }
    const embedded = embeddedReferences(text);
    if (embedded.size === 0) return text;
    const known: number[] = [];
    for (const [n, written] of embedded) {
      if (n >= 1 && n < step.number) known.push(n);
      else unknown.add(written);
    }
    if (known.length > 0) {
      for (const n of known) after.add(`call${n}`);
      options.warn(
        'W_IMPORT_EMBEDDED_REFERENCE',
        `step ${step.number}: ${JSON.stringify(clip(text))} refers to ${list(known.map((n) => `$${n}`))} ` +
          `inside a longer string; the text is passed as written, after ${list(known.map((n) => `call${n}`))}`,
        'a planmode reference is a whole string: pass "$N" as its own argument (a context list, say)',
      );
    }
    return text;
  };
  const read = readCallArguments(step.text, step.argsStart, { maxDepth: options.maxDepth, onString });
  if (!read.ok) {
    return {
      ok: false,
      column: read.offset + 1,
      message: read.message,
      ...(read.hint ? { hint: read.hint } : {}),
    };
  }
  if (step.tool === 'join') {
    if (read.args.length > 0) {
      options.warn('W_IMPORT_UNSUPPORTED', `step ${step.number}: join()'s arguments are not imported`);
    }
    return { ok: true, call: undefined, end: read.end };
  }
  for (const text of unknown) {
    options.warn(
      'W_IMPORT_UNKNOWN_REFERENCE',
      `step ${step.number}: ${text} is not an earlier step; the text is passed as written`,
      `a step refers only to steps before it (1 to ${step.number - 1})`,
    );
  }
  const known = options.parameters.get(step.tool);
  if (known && read.args.length > known.length) {
    return {
      ok: false,
      column: step.argsStart + 1,
      message:
        `step ${step.number}: ${step.tool} takes ${known.length} argument${known.length === 1 ? '' : 's'}` +
        `${known.length > 0 ? ` (${known.join(', ')})` : ''}, got ${read.args.length}`,
      hint: `positional arguments follow the order of the tool's inputSchema.properties in the tools file`,
    };
  }
  if (read.args.length === 1 && Array.isArray(read.args[0])) {
    options.warn(
      'W_IMPORT_UNSUPPORTED',
      `step ${step.number}: LLMCompiler's parser spreads a lone list argument into the call's arguments; ` +
        `it is imported as one argument`,
    );
  }
  const call: Record<string, unknown> = { _id: `call${step.number}`, _tool: step.tool };
  for (const [index, value] of read.args.entries()) {
    setOwnProperty(call, known ? known[index]! : `arg${index + 1}`, value);
  }
  if (after.size > 0) call._after = [...after];
  call._outputPath = planReference(`call${step.number}`);
  return { ok: true, call, end: read.end };
}

/**
 * The step numbers of LLMCompiler's `ID_PATTERN` (`\$\{?(\d+)\}?`) in a string, each once, in
 * order, with the text as written: one pass, no regular expression over the untrusted text.
 */
function embeddedReferences(text: string): Map<number, string> {
  const found = new Map<number, string>();
  let at = text.indexOf('$');
  while (at !== -1) {
    let digits = at + 1;
    if (text[digits] === '{') digits += 1;
    let end = digits;
    while (end < text.length && text[end]! >= '0' && text[end]! <= '9') end += 1;
    if (end > digits) {
      const written = `$${clip(text.slice(digits, end))}`;
      // Past nine digits it is no step of a bounded plan (the key -1 is never a step).
      const n = end - digits > 9 ? -1 : Number(text.slice(digits, end));
      if (!found.has(n)) found.set(n, written);
    }
    at = text.indexOf('$', Math.max(end, at + 1));
  }
  return found;
}

/** At most ten items named; the rest counted. */
function list(items: readonly string[]): string {
  return items.length <= 10
    ? items.join(', ')
    : `${items.slice(0, 10).join(', ')} and ${items.length - 10} more`;
}
