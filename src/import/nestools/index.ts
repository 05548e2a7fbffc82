/**
 * The NesTools reader: JSONL, one row per sample, each carrying its own APIs. A line that is
 * not JSON or not a row is an error at that line; the others import.
 */
import type { ImportProblem, ImportResult, ImportedSample } from '../types.js';
import { readJsonLines, type ReaderOptions, SampleIds } from '../reader/index.js';
import { readNestoolsRow } from './row.js';

/** Reads NesTools JSONL. */
export function importNestools(text: string, options: ReaderOptions): ImportResult {
  const { rows, problems } = readJsonLines(text);
  const errors: ImportProblem[] = problems.map((p) => ({
    severity: 'error',
    code: 'E_IMPORT_ROW',
    file: 'data',
    ...p,
  }));
  const samples: ImportedSample[] = [];
  const ids = new SampleIds();
  for (const [n, row] of rows.entries()) {
    if (n >= options.maxSamples) {
      errors.push({
        severity: 'error',
        code: 'E_IMPORT_ROW',
        file: 'data',
        line: row.line,
        message: `the row at line ${row.line} and the ${rows.length - n - 1} after it are past the limit of ${options.maxSamples} samples (maxSamples)`,
      });
      break;
    }
    const testId = testIdOf(row.value);
    const { id, changed } = ids.take(
      testId === undefined ? undefined : `${options.idPrefix}-${testId}`,
      `${options.idPrefix}-line${row.line}`,
    );
    const read = readNestoolsRow(row.value, { id, line: row.line }, options.mode);
    if ('error' in read) {
      errors.push({
        severity: 'error',
        code: 'E_IMPORT_ROW',
        file: 'data',
        line: row.line,
        sample: id,
        message: `line ${row.line}: ${read.error}; it is left out`,
      });
      continue;
    }
    const sample = changed
      ? {
          ...read.sample,
          warnings: [
            ...read.sample.warnings,
            {
              severity: 'warning' as const,
              code: 'W_IMPORT_UNSUPPORTED' as const,
              line: row.line,
              sample: id,
              file: 'data' as const,
              message: `its test_id ${JSON.stringify(testId)} is taken or not a plain name; the sample's id is ${id}`,
            },
          ],
        }
      : read.sample;
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
