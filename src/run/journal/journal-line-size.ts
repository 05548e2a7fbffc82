/**
 * Sizing a record to the bound its reader applies: a resume refuses any line longer than
 * `limits.maxTextLength` characters, so the writer never writes one.
 *
 * A result within the limits may still make a longer `call:end` line once its record is wrapped
 * around it (the call id, the tool, the counters; a resumed call's arguments), and JSON's escapes
 * can make a string up to six times its length. Two rules keep every line readable:
 * - a call's result whose `call:end` could pass the bound fails the call with LIMIT before its
 *   output is written anywhere (`resultTooLong`), so a completed call always has a record a
 *   resume reuses;
 * - any other line over the bound is written with its large fields (`args`, `value`, `error`,
 *   `output`, largest first) replaced by `{"unserializable": "too long for the journal: ..."}`
 *   and named in `unserializableFields`, as a value JSON cannot hold is (`fitLine`). A record
 *   whose output had to go is not reused: its call runs again on resume. A line still too long
 *   (a call id nearly as long as the bound) keeps only its type.
 */
import { REPLACED_FIELDS } from './journal-format.js';
import type { RunEvent } from '../types.js';

/** The fields that may give way to a stand-in: values, never the names a record is read by. */
const LARGE_FIELDS: readonly string[] = ['args', 'value', 'error', 'output'];

/** Most characters of JSON escaping one UTF-16 unit (`\u0001`). */
const MAX_ESCAPE = 6;

/** What stands in for a field too long for the journal. */
function tooLongStandIn(chars: number, bound: number): { readonly unserializable: string } {
  return {
    unserializable: `too long for the journal: ${chars} characters of JSON, and a line may have at most ${bound} (limits.maxTextLength)`,
  };
}

/**
 * The most characters a `call:end` of this call adds around its output: every field at its
 * longest, a resumed call's arguments as a stand-in included.
 */
export function callEndOverhead(call: string, tool: string): number {
  const longest = Number.MAX_SAFE_INTEGER;
  const record = {
    type: 'call:end',
    at: '+000000-00-00T00:00:00.000Z',
    call,
    tool,
    status: 'upstream_failed',
    branch: longest,
    handled: false,
    attempts: longest,
    durationMs: longest,
    error: null,
    output: null,
    args: tooLongStandIn(longest, longest),
    resumed: true,
    reused: true,
    [REPLACED_FIELDS]: ['args'],
  };
  // Less the `null` the output takes here; plus the newline is not counted by the reader.
  return JSON.stringify(record).length - 'null'.length;
}

/**
 * Why a result of `size` (the run's own count: a string's length, not its escapes) cannot be
 * journaled in a `call:end` line within `bound` characters; undefined when it can. Exact only
 * when it may not: a result far below the bound costs two comparisons.
 */
export function resultTooLong(
  call: string,
  tool: string,
  output: unknown,
  size: number,
  bound: number,
): string | undefined {
  // Each character of a name, or of the result, takes at most MAX_ESCAPE in JSON.
  const names = MAX_ESCAPE * (call.length + tool.length);
  if (MAX_ESCAPE * size + names + 1_000 <= bound) return undefined;
  const overhead = callEndOverhead(call, tool);
  if (size + overhead > bound) return tooLongMessage(size, overhead, bound);
  const chars = output === undefined ? 0 : JSON.stringify(output).length;
  return chars + overhead > bound ? tooLongMessage(chars, overhead, bound) : undefined;
}

function tooLongMessage(chars: number, overhead: number, bound: number): string {
  return `the result is ${chars} characters of JSON, and its journal record (up to ${overhead} more) would be longer than limits.maxTextLength (${bound} characters), the longest line a resume reads; return less, or raise maxTextLength`;
}

/**
 * The line (newline included) as it is written, within `bound` characters besides its newline:
 * `line` itself when it fits, otherwise the event with its large fields replaced by stand-ins
 * (see the file's comment).
 */
export function fitLine(event: RunEvent, line: string, bound: number): string {
  if (line.length - 1 <= bound) return line;
  const source = event as unknown as Record<string, unknown>;
  // Each field's JSON, measured alone: what a stand-in saves is known exactly.
  const fields = new Map<string, string>();
  const replaced: string[] = [];
  for (const key of Object.keys(source)) {
    let json: string | undefined;
    try {
      json = JSON.stringify(source[key]);
    } catch (cause) {
      json = JSON.stringify({ unserializable: cause instanceof Error ? cause.message : String(cause) });
      replaced.push(key);
    }
    if (json !== undefined) fields.set(key, json);
  }
  for (;;) {
    const text = assemble(fields, replaced);
    if (text.length - 1 <= bound) return text;
    let largest: string | undefined;
    for (const name of LARGE_FIELDS) {
      const json = fields.get(name);
      if (
        json !== undefined &&
        !replaced.includes(name) &&
        json.length > (fields.get(largest!)?.length ?? 0)
      ) {
        largest = name;
      }
    }
    if (largest === undefined) break;
    fields.set(largest, JSON.stringify(tooLongStandIn(fields.get(largest)!.length, bound)));
    replaced.push(largest);
  }
  const type = typeof source.type === 'string' ? source.type : 'unknown';
  const reason = tooLongStandIn(line.length - 1, bound).unserializable;
  return `${JSON.stringify({ type, unserializable: reason, [REPLACED_FIELDS]: ['*'] })}\n`;
}

function assemble(fields: ReadonlyMap<string, string>, replaced: readonly string[]): string {
  const members: string[] = [];
  for (const [key, json] of fields) members.push(`${JSON.stringify(key)}:${json}`);
  if (replaced.length > 0) members.push(`${JSON.stringify(REPLACED_FIELDS)}:${JSON.stringify(replaced)}`);
  return `{${members.join(',')}}\n`;
}
