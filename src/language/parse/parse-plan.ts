import {
  compareDiagnostics,
  type Diagnostic,
  error,
  type PendingDiagnostic,
  warning,
} from '../diagnostics.js';
import { readContextMessages } from './context-messages.js';
import type { PlanDocument } from '../document.js';
import { readDocument } from './read-document.js';
import {
  blankJsonExtensions,
  duplicateKeys,
  jsonSyntaxDiagnostic,
  type JsonExtension,
  SourceText,
} from '../text/index.js';
import { checkJson } from '../json/index.js';
import { type Limits, MAX_DEPTH_CEILING, resolveLimits } from '../limits.js';

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
  /** The document, or null when the text is not JSON or fits none of the four shapes. */
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
 * Never throws on bad input.
 */
export function parseContext(input: string | unknown, options: ParsePlanOptions = {}): ParsePlanResult {
  return parseWith(input, options, readContextMessages);
}

function parseWith(
  input: string | unknown,
  options: ParsePlanOptions,
  read: typeof readDocument,
): ParsePlanResult {
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
      pending.push(
        error(
          'E_LIMIT',
          '',
          `the document is ${input.length} characters long; the limit is ${limits.maxTextLength}`,
          {
            hint: 'split the plan, or raise limits.maxTextLength',
          },
        ),
      );
      return { document: null, diagnostics: positionDiagnostics(pending, source) };
    }
    try {
      value = JSON.parse(text);
    } catch (cause) {
      const tolerated = parseWithExtensions(text, source, cause, limits);
      if ('problem' in tolerated) {
        return { document: null, diagnostics: positionDiagnostics([tolerated.problem], source) };
      }
      value = tolerated.value;
      source = tolerated.source;
      pending.push(...tolerated.warnings);
    }
    pending.push(...duplicateKeyErrors(source, limits.maxDiagnostics));
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

/**
 * A text JSON.parse refused, read again with its comments and trailing commas blanked
 * (json-extensions): the value, a source whose text is the blanked one (same positions, and
 * the pointer scan that places later diagnostics reads only JSON), and a W_JSON_EXTENSION per
 * thing tolerated. When the blanked text is still not JSON, its own syntax error is reported:
 * the first error of the text as written may be a comment, which is not the problem.
 */
function parseWithExtensions(
  text: string,
  source: SourceText,
  cause: unknown,
  limits: Limits,
): { value: unknown; source: SourceText; warnings: PendingDiagnostic[] } | { problem: PendingDiagnostic } {
  const blanked = blankJsonExtensions(text, limits.maxDiagnostics);
  if ('unterminatedComment' in blanked) {
    const at = source.positionAt(blanked.unterminatedComment);
    const problem = error('E_JSON', '', 'invalid JSON: a /* comment that never ends', {
      hint: 'close the comment with */, or remove it',
    });
    return { problem: { ...problem, line: at.line, column: at.column } };
  }
  if (blanked.count === 0) return { problem: jsonSyntaxDiagnostic(source, cause) };
  const read = SourceText.fromText(blanked.text, source.name);
  let value: unknown;
  try {
    value = JSON.parse(blanked.text);
  } catch (again) {
    return { problem: jsonSyntaxDiagnostic(read, again) };
  }
  const warnings = blanked.extensions.map((extension) => extensionWarning(extension, read));
  const unlisted = blanked.count - blanked.extensions.length;
  if (unlisted > 0) {
    const last = warnings.at(-1) ?? { line: 1, column: 1 };
    warnings.push({
      ...warning(
        'W_JSON_EXTENSION',
        '',
        `and ${unlisted} more comments or trailing commas, read as space and not listed`,
        { hint: EXTENSION_HINT },
      ),
      line: last.line!,
      column: last.column!,
    });
  }
  return { value, source: read, warnings };
}

/** The longest key a message quotes whole. */
const QUOTED_KEY_LENGTH = 60;

/**
 * E_DUPLICATE_KEY for each key written twice in one object: JSON.parse keeps the last without a
 * word, so the text would not say what runs. Placed at the repeated key; the message gives the
 * first one's place.
 */
function duplicateKeyErrors(source: SourceText, max: number): PendingDiagnostic[] {
  return duplicateKeys(source.text, max).map((duplicate) => {
    const first = source.positionAt(duplicate.first);
    const at = source.positionAt(duplicate.repeated);
    const key =
      duplicate.key.length > QUOTED_KEY_LENGTH
        ? `${duplicate.key.slice(0, QUOTED_KEY_LENGTH)}…`
        : duplicate.key;
    const found = error(
      'E_DUPLICATE_KEY',
      duplicate.pointer,
      `key ${JSON.stringify(key)} is written twice in one object: first at line ${first.line}, column ${first.column}, again here; JSON readers keep only the last`,
      {
        hint: 'write each key once: remove one of them, or rename it (a call has one _tool, one _outputPath, and each argument once)',
      },
    );
    return { ...found, line: at.line, column: at.column };
  });
}

const EXTENSION_HINT =
  'planmode reads comments and trailing commas as space; strict JSON readers refuse them, so remove them if the plan goes elsewhere';

const EXTENSION_TEXT: Record<JsonExtension['kind'], string> = {
  'line-comment': 'a // comment',
  'block-comment': 'a /* */ comment',
  'trailing-comma': 'a trailing comma',
};

function extensionWarning(extension: JsonExtension, source: SourceText): PendingDiagnostic {
  const at = source.positionAt(extension.offset);
  const found = warning(
    'W_JSON_EXTENSION',
    '',
    `${EXTENSION_TEXT[extension.kind]}, which JSON does not allow: read as space`,
    { hint: EXTENSION_HINT },
  );
  return { ...found, line: at.line, column: at.column };
}
