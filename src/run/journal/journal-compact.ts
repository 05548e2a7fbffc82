/**
 * The compact lines of a version 4 journal: a call's `call:start` and `call:end`, the two
 * records every call writes, named by a tag that holds the call's id (`{"start": id, ...}`,
 * `{"end": id, ...}`) instead of `"type"` and `"call"`, with every field at its usual value left
 * out. A chain of no-op calls journals about half the characters it did in version 3, and the
 * run builds and writes that much less per call.
 *
 * Left out when it is (and filled back in when reading):
 *
 *     call:start  attempt 1
 *     call:end    status "succeeded", branch null, handled false, attempts 1, error null,
 *                 durationMs null
 *
 * Every other field is the event's, under its own name. Only an event of exactly the shape the
 * run writes takes this form; any other (another key, a value of another type, a number JSON
 * cannot hold, a throw) is written as a whole event, as version 3 writes it, and a version 4
 * journal reads both.
 */
import { showValue } from '../../tools/safe-describe.js';
import { argsJson, encodeCalls, endTail, isPlainEnd, isPlainStart } from './journal-encode.js';
import type { RunEvent } from '../types.js';

type CallStart = Extract<RunEvent, { readonly type: 'call:start' }>;
type CallEnd = Extract<RunEvent, { readonly type: 'call:end' }>;

/** The tag of a compact line and the event type it stands for. */
const TAGS = { start: 'call:start', end: 'call:end' } as const;
type Tag = keyof typeof TAGS;

/** The fields a compact line leaves out at these values, per tag. */
const DEFAULTS: { readonly [T in Tag]: Readonly<Record<string, unknown>> } = {
  start: { attempt: 1 },
  end: { status: 'succeeded', branch: null, handled: false, attempts: 1, error: null, durationMs: null },
};

/** One event as one line of a version 4 journal, newline included. */
export function encodeCompact(event: RunEvent): string {
  return encodeCalls(event, startLine, endLine);
}

function startLine(e: CallStart): string | undefined {
  if (!isPlainStart(e)) return undefined;
  const { at, call, tool, attempt, args } = e;
  const tries = attempt === 1 ? '' : `,"attempt":${attempt}`;
  return `{"start":${JSON.stringify(call)},"tool":${JSON.stringify(tool)}${tries},"args":${argsJson(args)},"at":${atJson(at)}}\n`;
}

function endLine(e: CallEnd): string | undefined {
  if (!isPlainEnd(e)) return undefined;
  const { at, call, tool, status, branch, handled, attempts, durationMs, error } = e;
  let head = `{"end":${JSON.stringify(call)},"tool":${JSON.stringify(tool)}`;
  if (status !== 'succeeded') head += `,"status":${JSON.stringify(status)}`;
  if (branch !== null) head += `,"branch":${branch}`;
  if (handled) head += ',"handled":true';
  if (attempts !== 1) head += `,"attempts":${attempts}`;
  if (durationMs !== null) head += `,"durationMs":${durationMs}`;
  if (error !== null) head += `,"error":${JSON.stringify(error)}`;
  const tail = endTail(e);
  return tail === undefined ? undefined : `${head}${tail},"at":${atJson(at)}}\n`;
}

/**
 * A compact line of a version 4 journal (a JSON object without `"type"`) as the whole event it
 * stands for, for the schema of that event to judge; or what is wrong with it, as a sentence.
 * Undefined when the object is not a compact line (it has no tag): the caller reads it as a
 * whole record. Fields other than the tag are copied as they are, unknown ones included, so
 * that the schema refuses what it would refuse in a whole record.
 */
export function expandCompact(
  value: Readonly<Record<string, unknown>>,
): Record<string, unknown> | string | undefined {
  const tag: Tag | undefined = Object.hasOwn(value, 'start')
    ? 'start'
    : Object.hasOwn(value, 'end')
      ? 'end'
      : undefined;
  if (tag === undefined) return undefined;
  const type = TAGS[tag];
  if (tag === 'start' && Object.hasOwn(value, 'end')) {
    return 'a compact record has both "start" and "end": a line is one record';
  }
  const id = value[tag];
  if (typeof id !== 'string') {
    return `a compact ${type} must have the call's id, a string, as "${tag}", got ${id === undefined ? 'nothing' : showValue(id)}`;
  }
  if (Object.hasOwn(value, 'call')) {
    return `a compact ${type} names its call in "${tag}" and must not have "call" too`;
  }
  // No prototype: a "__proto__" member stays a member (and the schema refuses it as unknown).
  const event = Object.create(null) as Record<string, unknown>;
  event.type = type;
  event.call = id;
  for (const key of Object.keys(value)) if (key !== tag) event[key] = value[key];
  const defaults = DEFAULTS[tag];
  for (const key of Object.keys(defaults)) if (!Object.hasOwn(event, key)) event[key] = defaults[key];
  return event;
}

/** The last time written and its JSON: the calls of a fast run share a millisecond. */
let lastAt = '';
let lastAtJson = '""';

function atJson(at: string): string {
  if (at !== lastAt) {
    lastAtJson = JSON.stringify(at);
    lastAt = at;
  }
  return lastAtJson;
}
