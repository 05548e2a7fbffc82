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
  let line: string | undefined;
  try {
    if (event.type === 'call:end') line = callEndLine(event);
    else if (event.type === 'call:start') line = callStartLine(event);
  } catch {
    // A getter or toJSON that throws: encodeEvent writes a stand-in for that field.
    line = undefined;
  }
  return line ?? encodeEvent(event);
}

function callStartLine(e: CallStart): string | undefined {
  if (ownKeys(e) !== 6) return undefined;
  const { at, call, tool, attempt, args } = e;
  if (typeof at !== 'string' || typeof call !== 'string' || typeof tool !== 'string') return undefined;
  if (!isNumber(attempt) || args === null || typeof args !== 'object' || Array.isArray(args))
    return undefined;
  return `{"type":"call:start","call":${JSON.stringify(call)},"tool":${JSON.stringify(tool)},"attempt":${attempt},"args":${argsJson(args)},"at":${JSON.stringify(at)}}\n`;
}

function callEndLine(e: CallEnd): string | undefined {
  const { at, call, tool, status, branch, handled, attempts, durationMs, error } = e;
  const hasOutput = Object.hasOwn(e, 'output');
  const hasArgs = Object.hasOwn(e, 'args');
  const hasResumed = Object.hasOwn(e, 'resumed');
  const hasReused = Object.hasOwn(e, 'reused');
  const keys = 10 + Number(hasOutput) + Number(hasArgs) + Number(hasResumed) + Number(hasReused);
  if (ownKeys(e) !== keys) return undefined;
  if (typeof at !== 'string' || typeof call !== 'string' || typeof tool !== 'string') return undefined;
  if (typeof status !== 'string' || typeof handled !== 'boolean' || !isNumber(attempts)) return undefined;
  if (!(branch === null || isNumber(branch)) || !(durationMs === null || isNumber(durationMs)))
    return undefined;
  if (typeof error !== 'object') return undefined;
  if (hasResumed && typeof e.resumed !== 'boolean') return undefined;
  if (hasReused && typeof e.reused !== 'boolean') return undefined;
  let out = `{"type":"call:end","call":${JSON.stringify(call)},"tool":${JSON.stringify(tool)},"status":${JSON.stringify(status)},"branch":${branch},"handled":${handled},"attempts":${attempts},"durationMs":${durationMs},"error":${error === null ? 'null' : JSON.stringify(error)}`;
  if (hasOutput) {
    const text = JSON.stringify(e.output);
    // JSON.stringify drops a member it cannot write (undefined, a function): so does this.
    if (text !== undefined) out += `,"output":${text}`;
  }
  if (hasResumed) out += `,"resumed":${e.resumed}`;
  if (hasArgs) {
    const args = e.args;
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
    out += `,"args":${argsJson(args)}`;
  }
  if (hasReused) out += `,"reused":${e.reused}`;
  return `${out},"at":${JSON.stringify(at)}}\n`;
}

/**
 * A call's arguments as JSON: members other calls share (frozen objects) from their kept text
 * (argumentsJson), as eventJson writes them; otherwise one JSON.stringify.
 */
function argsJson(args: object): string {
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
