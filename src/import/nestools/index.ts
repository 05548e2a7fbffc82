import { fileError, type ReaderOptions } from '../reader/index.js';
import type { ImportResult } from '../types.js';

/** Reads Nestools data. */
export function importNestools(_text: string, _options: ReaderOptions): ImportResult {
  return fileError('nestools', 'the nestools reader is not built yet', 'data');
}
