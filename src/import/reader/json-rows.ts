/**
 * The rows of a data file with the line each starts on: the elements of a JSON array (NESTFUL's
 * `*-data.json`, a spec file) or the lines of a JSONL file (NesTools). JSON.parse reads the
 * values; the lines of an array's elements come from one pass over the text (no syntax tree),
 * and a syntax error is placed at its line and column.
 */
import { SourceText } from '../../language/index.js';
import { jsonSyntaxDiagnostic } from '../../language/text/index.js';

/** One row: its value and its 1-based line. */
export interface Row {
  readonly value: unknown;
  readonly line: number;
}

/** A file that is not what it should be, placed. */
export interface RowsProblem {
  readonly message: string;
  readonly line: number;
  readonly hint?: string;
}

/** The elements of a JSON array text, or why the text is not one. */
export function readJsonArray(text: string, what: string): { rows: Row[] } | { problem: RowsProblem } {
  const source = SourceText.fromText(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return { problem: syntaxProblem(source, cause, what, 0) };
  }
  if (!Array.isArray(value)) {
    return {
      problem: { message: `${what} must be a JSON array of samples, got ${describe(value)}`, line: 1 },
    };
  }
  const positions = source.locateAll(value.map((_, i) => ({ pointer: `/${i}` })));
  return { rows: value.map((item: unknown, i) => ({ value: item, line: positions[i]!.line })) };
}

/** The rows of a JSONL text (blank lines skipped), each parsed alone: one bad line spoils only itself. */
export function readJsonLines(text: string): { rows: Row[]; problems: RowsProblem[] } {
  const rows: Row[] = [];
  const problems: RowsProblem[] = [];
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (raw.trim() === '') continue;
    try {
      rows.push({ value: JSON.parse(raw), line });
    } catch (cause) {
      problems.push(syntaxProblem(SourceText.fromText(raw), cause, `line ${line}`, line - 1));
    }
  }
  return { rows, problems };
}

/** Where JSON.parse stopped, as a problem; `linesBefore` places a JSONL line in its file. */
function syntaxProblem(source: SourceText, cause: unknown, what: string, linesBefore: number): RowsProblem {
  const d = jsonSyntaxDiagnostic(source, cause);
  const line = (d.line ?? 1) + linesBefore;
  const column = d.column ?? 1;
  return {
    message: `${what} is not JSON: ${d.message} (line ${line}, column ${column})`,
    line,
    ...(d.hint ? { hint: d.hint } : {}),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
