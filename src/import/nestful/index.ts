/**
 * The NESTFUL reader: a data file (a JSON array of samples) and its spec (a JSON array of APIs).
 * A sample that cannot be read is an error at its line; the others import.
 */
import type { ImportProblem, ImportResult, ImportedSample } from '../types.js';
import {
  fileError,
  pastLimitError,
  readJsonArray,
  type ReaderOptions,
  rowError,
  SampleIds,
} from '../reader/index.js';
import { readNestfulSample } from './sample.js';
import { readSpec } from './spec.js';

export { ANSWER_TOOL } from './spec.js';

/** Reads NESTFUL data; `options.spec` is the API spec's text. */
export function importNestful(text: string, options: ReaderOptions): ImportResult {
  if (options.spec === undefined) {
    return fileError(
      'nestful',
      'NESTFUL data needs its API spec',
      'spec',
      'pass the *-spec.json file beside the data: --spec FILE (library: the spec option)',
    );
  }
  const spec = readSpec(options.spec);
  if ('problem' in spec) return { format: 'nestful', samples: [], errors: [spec.problem] };
  const data = readJsonArray(text, 'the data');
  if ('problem' in data)
    return {
      format: 'nestful',
      samples: [],
      errors: [{ severity: 'error', code: 'E_IMPORT_FILE', file: 'data', ...data.problem }],
    };
  const errors: ImportProblem[] = [...spec.errors];
  const samples: ImportedSample[] = [];
  const ids = new SampleIds();
  for (const [n, row] of data.rows.entries()) {
    if (n >= options.maxSamples) {
      errors.push(pastLimitError(row.line, options.maxSamples, data.rows.length - n));
      break;
    }
    const { id } = ids.claim(`${options.idPrefix}-${n + 1}`);
    const read = readNestfulSample(row.value, { id, line: row.line }, spec, options.mode);
    if ('error' in read) {
      errors.push(rowError(row.line, id, `sample ${n + 1}: ${read.error}; it is left out`));
    } else samples.push(read.sample);
  }
  return { format: 'nestful', samples, errors };
}
