/**
 * An element's or a sub-call's record as one line, never longer than a resume reads: a record
 * over the bound loses its output and its arguments (its part then runs again on resume, as a
 * call whose output gave way does); one still over it is not written (a missing start or end
 * only makes its part run again).
 */
import { REPLACED_FIELDS } from './journal-format.js';
import type { PartRecord } from './journal-parts.js';

/** The line, newline included, or undefined when even the record without its values is too long. */
export function encodePart(record: PartRecord, bound: number): string | undefined {
  const line = tryJson(record);
  if (line !== undefined && line.length <= bound) return `${line}\n`;
  const slim = withoutValues(record);
  const slimLine = tryJson(slim);
  if (slimLine !== undefined && slimLine.length <= bound) return `${slimLine}\n`;
  return undefined;
}

function withoutValues(record: PartRecord): PartRecord {
  if (record.type === 'element:start') return record;
  if (record.type === 'element:end') {
    const { output: _output, ...rest } = record;
    return { ...rest, [REPLACED_FIELDS]: ['output'] } as PartRecord;
  }
  if (record.type === 'sub:start') {
    return {
      ...record,
      event: { ...record.event, args: STAND_IN, [REPLACED_FIELDS]: ['args'] },
    } as PartRecord;
  }
  const { args: _args, ...event } = record.event;
  // An end whose output is gone: marked so that a resume never reuses it.
  return { ...record, event: { ...event, output: STAND_IN, [REPLACED_FIELDS]: ['output'] } } as PartRecord;
}

const STAND_IN = { unserializable: 'too long for the journal' };

function tryJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
