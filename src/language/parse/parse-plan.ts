import { compareDiagnostics, type Diagnostic, error, type PendingDiagnostic } from '../diagnostics.js';
import type { PlanDocument } from '../document.js';
import { readDocument } from './read-document.js';
import { readRequestOrContext } from './read-request.js';
import { readJsonText, textTooLong } from './json-text.js';
import { SourceText } from '../text/index.js';
import { checkJson } from '../json/index.js';
import { type Limits, MAX_DEPTH_CEILING, resolveLimits } from '../limits.js';
import { checkOptions, type OptionSpec } from '../option-keys.js';

export interface ParsePlanOptions {
  /**
   * Name of the document in diagnostics: a file path, or `<stdin>`.
   * @default '<input>' for text, '<value>' for a value
   */
  readonly source?: string;
  /**
   * Bounds on the document; see {@link Limits}.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

export interface ParsePlanResult {
  /** The document, or null when the text is not JSON or fits none of the five shapes. */
  readonly document: PlanDocument | null;
  readonly diagnostics: Diagnostic[];
}

/**
 * Parses a plan document from JSON text (or an already parsed value) and recognizes its
 * shape. Never throws on bad input: every problem is a diagnostic with a line and column.
 */
export function parsePlan(input: string | unknown, options: ParsePlanOptions = {}): ParsePlanResult {
  return parseWith(input, options, readDocument);
}

/**
 * Parses a context array (input, state, tool and plan messages) whose plan message may be
 * missing, as the context of a first request is (the plan loop starts from one): input, state
 * and its schema, tool messages, and the plan's calls when there is a plan message (else none).
 * A request `{"schema": ..., "context": [...]}` is read too, its schema kept on the document.
 * Never throws on bad input.
 */
export function parseContext(input: string | unknown, options: ParsePlanOptions = {}): ParsePlanResult {
  return parseWith(input, options, readRequestOrContext);
}

/** limits has its own check (resolveLimits). */
const PARSE_PLAN_OPTIONS: OptionSpec<ParsePlanOptions> = {
  source: 'string',
  limits: 'any',
};

function parseWith(
  input: string | unknown,
  options: ParsePlanOptions,
  read: typeof readDocument,
): ParsePlanResult {
  checkOptions('parsePlan', options, PARSE_PLAN_OPTIONS);
  const limits = resolveLimits(options.limits);
  const pending: PendingDiagnostic[] = [];
  let value: unknown;
  let source: SourceText;
  if (typeof input === 'string') {
    // The byte order mark is not part of the JSON, and editors do not count it as a column;
    // left in, it also made the positioned parse fail, so every position fell back to 1:1.
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    source = SourceText.fromText(text, options.source ?? '<input>');
    if (input.length > limits.maxTextLength) {
      return {
        document: null,
        diagnostics: positionDiagnostics([textTooLong(input.length, limits)], source),
      };
    }
    const read = readJsonText(text, source, limits);
    if ('problem' in read) {
      return { document: null, diagnostics: positionDiagnostics([read.problem], source) };
    }
    value = read.value;
    source = read.source;
    pending.push(...read.pending);
  } else {
    value = input;
    source = SourceText.fromValue(input, options.source ?? '<value>');
    // A document given as a value may hold anything code can make: before anything walks it
    // (positions render it as JSON), it must be JSON data, and no deeper than JSON.stringify
    // can go. Each part (a call, an input or state message, `_output`) is then held to the
    // limits exactly, with a pointer, where it is read.
    const checked = checkJson(input, { limits: { ...limits, maxDepth: MAX_DEPTH_CEILING + 3 } });
    if ('problem' in checked) {
      const { problem } = checked;
      const found = error(
        problem.code === 'LIMIT' ? 'E_LIMIT' : 'E_SHAPE',
        problem.pointer,
        `the document${problem.pointer === '' ? '' : ` at ${problem.pointer}`} ${problem.message}`,
        { hint: problem.hint },
      );
      // Not positioned: the value cannot be rendered as JSON text to point into.
      return { document: null, diagnostics: [{ ...found, line: 1, column: 1 }] };
    }
  }
  const document = read(value, source, pending, limits);
  if (document && document.calls.length > limits.maxCalls) {
    pending.push(
      error(
        'E_LIMIT',
        document.callsPointer,
        `the plan has ${document.calls.length} calls; the limit is ${limits.maxCalls}`,
        {
          hint: 'split the plan, or raise limits.maxCalls',
        },
      ),
    );
    return { document: null, diagnostics: positionDiagnostics(pending, source) };
  }
  return { document, diagnostics: positionDiagnostics(pending, source) };
}

/** Gives pending diagnostics their line and column in `source` (one pass for all), in source order. */
export function positionDiagnostics(pending: readonly PendingDiagnostic[], source: SourceText): Diagnostic[] {
  const unplaced = pending.filter((d) => d.line === undefined || d.column === undefined);
  const positions = source.locateAll(
    unplaced.map((d) => ({
      pointer: d.pointer,
      options: { ...(d.offset !== undefined && { offset: d.offset }), ...(d.atKey && { key: true }) },
    })),
  );
  let next = 0;
  const out: Diagnostic[] = pending.map((d) => {
    const { offset: _offset, atKey: _atKey, line, column, ...rest } = d;
    if (line !== undefined && column !== undefined) return { ...rest, line, column };
    const position = positions[next++]!;
    return { ...rest, line: position.line, column: position.column };
  });
  return out.sort(compareDiagnostics);
}
