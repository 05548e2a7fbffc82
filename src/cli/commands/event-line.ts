/**
 * One `--events` JSON line per run event. A field JSON cannot hold (a call's arguments longer
 * than a string may be: 300 arguments of one 2 MB value make 600 MB) must not cost the line its
 * call and tool, or the reader could not tell which call started: that field alone is replaced,
 * as in the journal (language/json/stand-ins.ts), and the line names it.
 */
import { eventJson, jsonWithStandIns, REPLACED_FIELDS } from '../../language/json/index.js';
import type { RunEvent } from '../../run/types.js';

/** The event's JSON line (without its newline). */
export function eventLine(event: RunEvent): string {
  try {
    // Arguments many calls share are serialised once (see language/json/shared-json.ts).
    return eventJson(event);
  } catch (cause) {
    return jsonWithStandIns(event, { reason: notWritten }) ?? plainFields(event, cause);
  }
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
  plain.unserializable = notWritten(cause);
  plain[REPLACED_FIELDS] = left;
  return JSON.stringify(plain);
}

function notWritten(cause: unknown): string {
  return `not written: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * An event of a workflow's sub-run (it carries `parent`): about a call of the workflow's plan,
 * not of the plan the command runs, whose calls the views and the exit guard follow by id (an
 * inner call may share an id with an outer one, and its `run:end` is not the run's end). It is
 * still written by `--events`, with its `parent`.
 */
export function isSubRunEvent(event: RunEvent): boolean {
  return (event as { parent?: unknown }).parent !== undefined;
}
