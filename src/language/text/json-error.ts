/** E_JSON: where a text stops being JSON, and what to do about it. */
import { parse as parseWithPositions } from '@humanwhocodes/momoa';
import { error, type PendingDiagnostic } from '../diagnostics.js';
import type { SourceText } from './source.js';

/** Builds the E_JSON diagnostic for a text that JSON.parse rejected with `cause`. */
export function jsonSyntaxDiagnostic(source: SourceText, cause: unknown): PendingDiagnostic {
  const text = source.text;
  const offset = syntaxErrorOffset(text, cause);
  const position = source.positionAt(offset);
  const found = offset >= text.length ? 'the end of the text' : JSON.stringify(text[offset]);
  const diagnostic = error('E_JSON', '', `invalid JSON: unexpected ${found}`, {
    hint: hintFor(text, offset),
  });
  return { ...diagnostic, line: position.line, column: position.column };
}

function syntaxErrorOffset(text: string, cause: unknown): number {
  // JSON.parse is the parser that rejected the text, and V8 usually names the exact character
  // it stopped at. momoa only says where the offending token starts, reports the end of the
  // text as offset 0 for "[\n" or "  ", and accepts raw control characters in strings.
  const message = cause instanceof Error ? cause.message : '';
  const match = /position (\d+)/.exec(message);
  if (match) return Number(match[1]);
  if (/end of JSON input/.test(message)) return text.length;
  // "Unexpected token ..." without a position: momoa knows where that token is.
  try {
    parseWithPositions(text, { mode: 'json' });
  } catch (e) {
    const offset = (e as { offset?: unknown }).offset;
    if (typeof offset === 'number') return offset;
  }
  return text.trim() === '' ? text.length : 0;
}

function hintFor(text: string, offset: number): string {
  if (offset >= text.length) {
    return text.trim() === ''
      ? 'the text is empty: a plan is a JSON array of calls'
      : 'the text ends early: close every [ and { and every string';
  }
  const c = text[offset];
  let before = offset - 1;
  while (before >= 0 && /\s/.test(text[before] ?? '')) before--;
  if ((c === ']' || c === '}') && text[before] === ',') return 'remove the trailing comma before it';
  if (c === "'") return 'JSON strings use double quotes';
  if (c === '/') return 'JSON has no comments';
  if (c !== undefined && c < ' ') {
    return 'a string cannot hold a raw line break, tab or control character: escape it (\\n, \\t) or close the string';
  }
  if (/[A-Za-z_$]/.test(c ?? '') && (text[before] === '{' || text[before] === ','))
    return 'object keys must be double-quoted strings';
  if (
    c === '"' &&
    (text[before] === '}' ||
      text[before] === ']' ||
      text[before] === '"' ||
      /[\d\w]/.test(text[before] ?? ''))
  ) {
    return 'a comma is missing before it';
  }
  return 'fix the JSON syntax at this position';
}
