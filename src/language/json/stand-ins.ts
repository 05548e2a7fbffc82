/**
 * A run event written as one JSON line even when a field of it is not JSON: a cycle, a BigInt,
 * a throwing toJSON, or a value longer than a string may be (300 arguments of one 2 MB value
 * make a 600 MB `call:start`). The journal and `--events` both write lines this way, so a
 * reader of either sees the same stand-in: the field at fault becomes `{"unserializable": why}`
 * and the line names it in `unserializableFields`; every other field is kept.
 */
import { eventJson } from './shared-json.js';

/** What stands in for a field JSON cannot hold. */
export interface Unserializable {
  readonly unserializable: string;
}

/**
 * Added to a line whose fields had to be replaced, naming them, so that a reader can tell a
 * stand-in from a tool's real output.
 */
export const REPLACED_FIELDS = 'unserializableFields';

export interface StandInOptions {
  /**
   * The text of a stand-in, from what JSON threw.
   * @default the error's message, up to its first line break
   */
  readonly reason?: (cause: unknown) => string;
}

/**
 * The event's JSON with each field JSON throws on replaced by a stand-in, and those fields named
 * in {@link REPLACED_FIELDS}; for an event whose whole JSON already threw. Undefined when no
 * field is at fault alone (they each fit, but not together) or the line still cannot be written
 * (a getter throws differently on a second read): the caller decides what is left to say then.
 */
export function jsonWithStandIns(event: object, options: StandInOptions = {}): string | undefined {
  const reason = options.reason ?? firstLine;
  const line: Record<string, unknown> = {};
  const replaced: string[] = [];
  for (const key of Object.keys(event)) {
    let value: unknown;
    try {
      value = (event as Record<string, unknown>)[key];
      // Through eventJson, so that shared arguments are written from their kept text.
      eventJson({ [key]: value });
    } catch (cause) {
      value = { unserializable: reason(cause) } satisfies Unserializable;
      replaced.push(key);
    }
    // Defined, not assigned: a "__proto__" field stays a field.
    Object.defineProperty(line, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // Every field fits alone: together they do not (longer than a string may be).
  if (replaced.length === 0) return undefined;
  line[REPLACED_FIELDS] = replaced;
  try {
    return eventJson(line);
  } catch {
    return undefined;
  }
}

/** An error's message up to its first line break: one line of a JSONL file. */
export function firstLine(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  const newline = text.indexOf('\n');
  return newline < 0 ? text : text.slice(0, newline);
}
