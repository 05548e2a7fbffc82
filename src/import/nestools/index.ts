/**
 * The NesTools reader: JSONL, one row per sample, each carrying its own APIs. A line that is
 * not JSON or not a row is an error at that line; the others import.
 */
import type { ImportProblem, ImportResult, ImportedSample } from '../types.js';
import {
  isSafeId,
  pastLimitError,
  readJsonLines,
  type ReaderOptions,
  rowError,
  SampleIds,
} from '../reader/index.js';
import { readNestoolsRow } from './row.js';

/** Reads NesTools JSONL. */
export function importNestools(text: string, options: ReaderOptions): ImportResult {
  const { rows, problems } = readJsonLines(text);
  const errors: ImportProblem[] = problems.map((p) => rowError(p.line, undefined, p.message, p.hint));
  const samples: ImportedSample[] = [];
  const ids = new SampleIds();
  for (const [n, row] of rows.entries()) {
    if (n >= options.maxSamples) {
      errors.push(pastLimitError(row.line, options.maxSamples, rows.length - n));
      break;
    }
    const testId = testIdOf(row.value);
    const wanted = testId === undefined ? undefined : `${options.idPrefix}-${testId}`;
    const safe = wanted !== undefined && isSafeId(wanted);
    const { id, renamed } = ids.claim(safe ? wanted : `${options.idPrefix}-line${row.line}`);
    const read = readNestoolsRow(row.value, { id, line: row.line }, options.mode);
    if ('error' in read) {
      errors.push(rowError(row.line, id, `line ${row.line}: ${read.error}; it is left out`));
      continue;
    }
    const note = (code: ImportProblem['code'], message: string): ImportProblem => ({
      severity: 'warning',
      code,
      line: row.line,
      sample: id,
      file: 'data',
      message,
    });
    const warnings = [...read.sample.warnings];
    if (wanted !== undefined && !safe) {
      warnings.push(
        note(
          'W_IMPORT_UNSUPPORTED',
          `its test_id ${JSON.stringify(testId)} is not a plain name; the sample's id is ${id}`,
        ),
      );
    }
    if (renamed)
      warnings.push(
        note(
          'W_IMPORT_DUPLICATE_ID',
          `an earlier sample has the id ${safe ? wanted : id.replace(/-\d+$/, '')}; this one is ${id}`,
        ),
      );
    const sample =
      warnings.length === read.sample.warnings.length ? read.sample : { ...read.sample, warnings };
    samples.push(sample);
  }
  errors.sort((a, b) => a.line - b.line);
  return { format: 'nestools', samples, errors };
}

function testIdOf(row: unknown): string | undefined {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return undefined;
  const id = (row as Record<string, unknown>).test_id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))
    ? String(id)
    : undefined;
}
