/**
 * The journal's writer for the two records every call has, `call:start` and `call:end`: one
 * template per record instead of JSON.stringify walking the event, so that each field's text is
 * made once (the output and arguments once, by JSON.stringify or the shared-JSON cache) and the
 * key names are constants. The text is what JSON.stringify(event) gives, in the same key order.
 *
 * Only an event of exactly the shape the run writes takes this path: any other key, a value of
 * another type, a number JSON cannot hold, or a throw goes to encodeEvent, which writes such
 * events as it always did (stand-ins, `unserializableFields`).
 */
import { argumentsJson } from '../../language/json/index.js';
import { encodeEvent } from './journal-format.js';
import type { RunEvent } from '../types.js';

type CallStart = Extract<RunEvent, { readonly type: 'call:start' }>;
type CallEnd = Extract<RunEvent, { readonly type: 'call:end' }>;

/** One event as one line of JSON, newline included: encodeEvent's text, made faster for calls. */
export function encodeRecord(event: RunEvent): string {
  return encodeCalls(event, callStartLine, callEndLine);
}

/**
 * One event as one line, newline included: a call's start or end by its template (`start`,
 * `end`), which gives undefined for a shape it does not write; any other event, such a shape, or
 * a template that throws, by encodeEvent.
 */
export function encodeCalls(
  event: RunEvent,
  start: (e: CallStart) => string | undefined,
  end: (e: CallEnd) => string | undefined,
): string {
  let line: string | undefined;
  try {
    if (event.type === 'call:end') line = end(event);
    else if (event.type === 'call:start') line = start(event);
  } catch {
    // A getter or toJSON that throws: encodeEvent writes a stand-in for that field.
    line = undefined;
  }
  return line ?? encodeEvent(event);
}

function callStartLine(e: CallStart): string | undefined {
  if (!isPlainStart(e)) return undefined;
  const { at, call, tool, attempt, args } = e;
  return `{"type":"call:start","call":${JSON.stringify(call)},"tool":${JSON.stringify(tool)},"attempt":${attempt},"args":${argsJson(args)},"at":${JSON.stringify(at)}}\n`;
}

/** A call:start of exactly the shape the run writes: the only one a template may write. */
export function isPlainStart(e: CallStart): boolean {
  if (ownKeys(e) !== 6) return false;
  const { at, call, tool, attempt, args } = e;
  if (typeof at !== 'string' || typeof call !== 'string' || typeof tool !== 'string') return false;
  return isNumber(attempt) && args !== null && typeof args === 'object' && !Array.isArray(args);
}

function callEndLine(e: CallEnd): string | undefined {
  if (!isPlainEnd(e)) return undefined;
  const { at, call, tool, status, branch, handled, attempts, durationMs, error } = e;
  const head = `{"type":"call:end","call":${JSON.stringify(call)},"tool":${JSON.stringify(tool)},"status":${JSON.stringify(status)},"branch":${branch},"handled":${handled},"attempts":${attempts},"durationMs":${durationMs},"error":${error === null ? 'null' : JSON.stringify(error)}`;
  const tail = endTail(e);
  return tail === undefined ? undefined : `${head}${tail},"at":${JSON.stringify(at)}}\n`;
}

/**
 * The members of a call:end after its counters, as a template writes them: its output, whether
 * it was resumed, its arguments, whether it was reused (each when the event has it). Undefined
 * when its arguments are not an object.
 */
export function endTail(e: CallEnd): string | undefined {
  let out = '';
  if (Object.hasOwn(e, 'output')) {
    const text = JSON.stringify(e.output);
    // JSON.stringify drops a member it cannot write (undefined, a function): so does this.
    if (text !== undefined) out += `,"output":${text}`;
  }
  if (Object.hasOwn(e, 'resumed')) out += `,"resumed":${e.resumed}`;
  if (Object.hasOwn(e, 'args')) {
    const args = e.args;
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
    out += `,"args":${argsJson(args)}`;
  }
  if (Object.hasOwn(e, 'reused')) out += `,"reused":${e.reused}`;
  return out;
}

/**
 * A call:end of exactly the shape the run writes: the only one a template may write. Its
 * arguments, when it has them, are checked where they are written.
 */
export function isPlainEnd(e: CallEnd): boolean {
  const { at, call, tool, status, branch, handled, attempts, durationMs, error } = e;
  const hasOutput = Object.hasOwn(e, 'output');
  const hasArgs = Object.hasOwn(e, 'args');
  const hasResumed = Object.hasOwn(e, 'resumed');
  const hasReused = Object.hasOwn(e, 'reused');
  const keys = 10 + Number(hasOutput) + Number(hasArgs) + Number(hasResumed) + Number(hasReused);
  if (ownKeys(e) !== keys) return false;
  if (typeof at !== 'string' || typeof call !== 'string' || typeof tool !== 'string') return false;
  if (typeof status !== 'string' || typeof handled !== 'boolean' || !isNumber(attempts)) return false;
  if (!(branch === null || isNumber(branch)) || !(durationMs === null || isNumber(durationMs))) return false;
  if (typeof error !== 'object') return false;
  if (hasResumed && typeof e.resumed !== 'boolean') return false;
  return !(hasReused && typeof e.reused !== 'boolean');
}

/**
 * A call's arguments as JSON: members other calls share (frozen objects) from their kept text
 * (argumentsJson), as eventJson writes them; otherwise one JSON.stringify.
 */
export function argsJson(args: object): string {
  for (const key in args) {
    const value: unknown = (args as Record<string, unknown>)[key];
    if (value !== null && typeof value === 'object' && Object.isFrozen(value)) return argumentsJson(args);
  }
  return JSON.stringify(args);
}

/** Own enumerable keys, counted without making their list. */
function ownKeys(record: object): number {
  let count = 0;
  for (const key in record) if (Object.hasOwn(record, key)) count++;
  return count;
}

/** A number JSON writes as itself (not NaN or an infinity, which it writes as null). */
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
