import { fileError, type ReaderOptions } from '../reader/index.js';
import type { ImportResult } from '../types.js';

/** Reads Nestful data. */
export function importNestful(_text: string, _options: ReaderOptions): ImportResult {
  return fileError('nestful', 'the nestful reader is not built yet', 'data');
}
