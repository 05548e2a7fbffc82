/**
 * One `--events` JSON line per run event. A field JSON cannot hold (a call's arguments longer
 * than a string may be: 300 arguments of one 2 MB value make 600 MB; a BigInt a tool put in an
 * error) must not cost the line its call and tool, or the reader could not tell which call
 * started: that field alone is replaced, as the journal replaces one, by
 * `{"unserializable": why}`, and the line names it in `unserializableFields`.
 */
import { eventJson } from '../../language/json/index.js';
import type { RunEvent } from '../../run/types.js';

/** Names the fields a line had to replace (the journal's name for the same thing). */
const REPLACED_FIELDS = 'unserializableFields';

/** The event's JSON line (without its newline). */
export function eventLine(event: RunEvent): string {
  try {
    // Arguments many calls share are serialised once (see language/json/shared-json.ts).
    return eventJson(event);
  } catch (cause) {
    return fieldByField(event, cause);
  }
}

/** Each field on its own: the ones JSON cannot hold become stand-ins, the rest are kept. */
function fieldByField(event: RunEvent, cause: unknown): string {
  const kept: Record<string, unknown> = {};
  const replaced: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    try {
      if (value !== null && typeof value === 'object') eventJson({ [key]: value });
      else JSON.stringify(value);
      kept[key] = value;
    } catch (fieldCause) {
      kept[key] = { unserializable: `not written: ${messageOf(fieldCause)}` };
      replaced.push(key);
    }
  }
  if (replaced.length > 0) {
    kept[REPLACED_FIELDS] = replaced;
    try {
      return eventJson(kept);
    } catch {
      // What is left is still too long together: as below.
    }
  }
  return plainFields(event, cause);
}

/**
 * The plain fields (call, tool, status...) alone, the others named: for a line whose fields can
 * each be written, but not together (longer than a string may be).
 */
function plainFields(event: RunEvent, cause: unknown): string {
  const plain: Record<string, unknown> = {};
  const left: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    if (value === null || typeof value !== 'object') plain[key] = value;
    else left.push(key);
  }
  plain.unserializable = `not written: ${messageOf(cause)}`;
  plain[REPLACED_FIELDS] = left;
  return JSON.stringify(plain);
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
