/**
 * One JSON text read as planmode reads every plan text: JSON.parse, and when it refuses, the
 * comments and trailing commas blanked (json-extensions) and the text parsed again with a
 * W_JSON_EXTENSION per thing tolerated; then every key written twice (E_DUPLICATE_KEY). The
 * whole-document parser (parse-plan) reads a document with it, and the incremental reader
 * (language/stream) reads each call's own slice of the document with it, placed where the slice
 * is in the document: one grammar, the same values and the same diagnostics.
 */
import { error, type PendingDiagnostic, warning } from '../diagnostics.js';
import type { Limits } from '../limits.js';
import {
  blankJsonExtensions,
  duplicateKeys,
  jsonSyntaxDiagnostic,
  type JsonExtension,
  SourceText,
} from '../text/index.js';

/** Where a text read on its own sits in a larger document (the identity for a whole document). */
export interface TextPlacement {
  /** Prefix of every pointer found in the text: the pointer of the text's value in the document. */
  readonly pointer: string;
  /** A line and column of the text (1-based) as a line and column of the document. */
  place(line: number, column: number): { line: number; column: number };
}

const WHOLE_DOCUMENT: TextPlacement = { pointer: '', place: (line, column) => ({ line, column }) };

export type ReadJsonText =
  | {
      readonly value: unknown;
      /** The text as read: the blanked one when extensions were blanked (same positions). */
      readonly source: SourceText;
      /** W_JSON_EXTENSION and E_DUPLICATE_KEY, each with its line and column. */
      readonly pending: PendingDiagnostic[];
    }
  | { readonly problem: PendingDiagnostic };

/** Reads `source`'s text (`text`), its diagnostics placed by `placement`. Never throws on bad input. */
export function readJsonText(
  text: string,
  source: SourceText,
  limits: Limits,
  placement: TextPlacement = WHOLE_DOCUMENT,
): ReadJsonText {
  let value: unknown;
  let read = source;
  const pending: PendingDiagnostic[] = [];
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const tolerated = parseWithExtensions(text, source, cause, limits, placement);
    if ('problem' in tolerated) return tolerated;
    value = tolerated.value;
    read = tolerated.source;
    pending.push(...tolerated.warnings);
  }
  pending.push(...duplicateKeyErrors(read, limits.maxDiagnostics, placement));
  return { value, source: read, pending };
}

/** E_LIMIT for a document of `length` characters, over limits.maxTextLength. */
export function textTooLong(length: number, limits: Limits): PendingDiagnostic {
  return error(
    'E_LIMIT',
    '',
    `the document is ${length} characters long; the limit is ${limits.maxTextLength}`,
    {
      hint: 'split the plan, or raise limits.maxTextLength',
    },
  );
}

/** `found` with its line and column placed in the document. */
function placed(found: PendingDiagnostic, line: number, column: number, placement: TextPlacement) {
  const at = placement.place(line, column);
  return { ...found, line: at.line, column: at.column };
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
  placement: TextPlacement,
): { value: unknown; source: SourceText; warnings: PendingDiagnostic[] } | { problem: PendingDiagnostic } {
  const blanked = blankJsonExtensions(text, limits.maxDiagnostics);
  if ('unterminatedComment' in blanked) {
    const at = source.positionAt(blanked.unterminatedComment);
    const problem = error('E_JSON', '', 'invalid JSON: a /* comment that never ends', {
      hint: 'close the comment with */, or remove it',
    });
    return { problem: placed(problem, at.line, at.column, placement) };
  }
  if (blanked.count === 0) return { problem: syntaxProblem(source, cause, placement) };
  const read = SourceText.fromText(blanked.text, source.name);
  let value: unknown;
  try {
    value = JSON.parse(blanked.text);
  } catch (again) {
    return { problem: syntaxProblem(read, again, placement) };
  }
  const warnings = blanked.extensions.map((extension) => extensionWarning(extension, read, placement));
  const unlisted = blanked.count - blanked.extensions.length;
  if (unlisted > 0) {
    const last = warnings.at(-1) ?? placement.place(1, 1);
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

function syntaxProblem(source: SourceText, cause: unknown, placement: TextPlacement): PendingDiagnostic {
  const found = jsonSyntaxDiagnostic(source, cause);
  return placed(found, found.line!, found.column!, placement);
}

/** The longest key a message quotes whole. */
const QUOTED_KEY_LENGTH = 60;

/**
 * E_DUPLICATE_KEY for each key written twice in one object: JSON.parse keeps the last without a
 * word, so the text would not say what runs. Placed at the repeated key; the message gives the
 * first one's place.
 */
function duplicateKeyErrors(source: SourceText, max: number, placement: TextPlacement): PendingDiagnostic[] {
  return duplicateKeys(source.text, max).map((duplicate) => {
    const firstAt = source.positionAt(duplicate.first);
    const first = placement.place(firstAt.line, firstAt.column);
    const at = source.positionAt(duplicate.repeated);
    const key =
      duplicate.key.length > QUOTED_KEY_LENGTH
        ? `${duplicate.key.slice(0, QUOTED_KEY_LENGTH)}…`
        : duplicate.key;
    const found = error(
      'E_DUPLICATE_KEY',
      placement.pointer + duplicate.pointer,
      `key ${JSON.stringify(key)} is written twice in one object: first at line ${first.line}, column ${first.column}, again here; JSON readers keep only the last`,
      {
        hint: 'write each key once: remove one of them, or rename it (a call has one _tool, one _outputPath, and each argument once)',
      },
    );
    return placed(found, at.line, at.column, placement);
  });
}

const EXTENSION_HINT =
  'planmode reads comments and trailing commas as space; strict JSON readers refuse them, so remove them if the plan goes elsewhere';

const EXTENSION_TEXT: Record<JsonExtension['kind'], string> = {
  'line-comment': 'a // comment',
  'block-comment': 'a /* */ comment',
  'trailing-comma': 'a trailing comma',
};

function extensionWarning(
  extension: JsonExtension,
  source: SourceText,
  placement: TextPlacement,
): PendingDiagnostic {
  const at = source.positionAt(extension.offset);
  const found = warning(
    'W_JSON_EXTENSION',
    '',
    `${EXTENSION_TEXT[extension.kind]}, which JSON does not allow: read as space`,
    { hint: EXTENSION_HINT },
  );
  return placed(found, at.line, at.column, placement);
}
