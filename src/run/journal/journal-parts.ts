/**
 * The journal's records of what runs inside a call: each element of a `_forEach` call and each
 * call of a workflow's sub-plan. They let a resume run again only the elements and sub-calls
 * that did not finish, where a call's own records would run the whole call again.
 *
 * A part is named by its path from the plan's call: call ids and element indices, in the order
 * they nest. `["fetchAll", 3]` is element 3 of call fetchAll; `["research", "summarize"]` is
 * the call summarize of the workflow that call research runs; `["fetchAll", 3, "summarize"]`
 * that call inside the workflow element 3 of fetchAll runs. An index follows a call id, never
 * another index; paths are at most MAX_PART_PATH long (workflows nest at most 32 deep, and each
 * level adds a call id and at most an element index).
 *
 * Four records, only in a journal of version 3 or 4 (version 4 is what a new journal is; version
 * 3 is what planmode wrote before it for a plan with a `_forEach` call or a workflow call):
 * - `element:start` `{path, count}` before the element's tool runs (`count`: the call's element count);
 * - `element:end` `{path, count, status, error, output?}` before anyone hears of the element;
 * - `sub:start` `{path, event}` with the sub-call's `call:start` as `event`, before its tool runs;
 * - `sub:end` `{path, event}` with the sub-call's `call:end`, before anyone hears of it or a
 *   sub-call that depends on it starts.
 */
import { showValue } from '../../tools/safe-describe.js';
import { REPLACED_FIELDS } from './journal-format.js';
import { isCallError } from './journal-values.js';
import type { CallError, RunEvent } from '../types.js';

type CallStart = Extract<RunEvent, { readonly type: 'call:start' }>;
type CallEnd = Extract<RunEvent, { readonly type: 'call:end' }>;

/** Call ids and element indices, from the plan's call inwards. */
export type PartPath = readonly (string | number)[];

/** The longest path a part may have: 2 × (MAX_WORKFLOW_DEPTH + 1). */
export const MAX_PART_PATH = 66;

/** The longest call id in a path: no plan's call id is longer. */
const MAX_SEGMENT_CHARS = 1000;

export type PartRecord =
  | { readonly type: 'element:start'; readonly at: string; readonly path: PartPath; readonly count: number }
  | {
      readonly type: 'element:end';
      readonly at: string;
      readonly path: PartPath;
      readonly count: number;
      readonly status: 'succeeded' | 'failed';
      readonly error: CallError | null;
      readonly output?: unknown;
    }
  | { readonly type: 'sub:start'; readonly at: string; readonly path: PartPath; readonly event: CallStart }
  | { readonly type: 'sub:end'; readonly at: string; readonly path: PartPath; readonly event: CallEnd };

export type PartEnd = Extract<PartRecord, { readonly type: 'element:end' | 'sub:end' }>;

export const PART_TYPES: ReadonlySet<string> = new Set([
  'element:start',
  'element:end',
  'sub:start',
  'sub:end',
]);

/** The key a part is found by: its path as JSON (unambiguous: ids are strings, indices numbers). */
export function partKey(path: PartPath): string {
  return JSON.stringify(path);
}

/**
 * A part record's path, structure and bounds, read from a parsed line (its inner event is read
 * by `readEvent`, the schema of call records). A problem as a sentence, or the record.
 */
export function readPartRecord(
  type: string,
  value: Record<string, unknown>,
  maxForEach: number,
  readEvent: (type: 'call:start' | 'call:end', value: unknown) => RunEvent | string,
): PartRecord | string {
  const element = type === 'element:start' || type === 'element:end';
  const allowed = element
    ? type === 'element:start'
      ? ['type', 'at', 'path', 'count']
      : ['type', 'at', 'path', 'count', 'status', 'error', 'output', REPLACED_FIELDS]
    : ['type', 'at', 'path', 'event'];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) return `a ${type} has an unknown field ${showValue(key)}`;
  }
  if (typeof value.at !== 'string') return `a ${type} must have a string "at"`;
  const problem = pathProblem(type, value.path, element, maxForEach);
  if (problem !== undefined) return problem;
  const path = value.path as PartPath;
  if (element) {
    const count = value.count;
    const index = path[path.length - 1] as number;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > maxForEach) {
      return `a ${type} must have a "count" of elements from 1 to limits.maxForEach (${maxForEach}), got ${showValue(count)}`;
    }
    if (index >= count) return `a ${type} records element ${index} of a call of ${count} elements`;
    if (type === 'element:start') return value as unknown as PartRecord;
    return readElementEnd(value);
  }
  const event = readEvent(type === 'sub:start' ? 'call:start' : 'call:end', value.event);
  if (typeof event === 'string') return `a ${type}'s "event": ${event}`;
  if ((event as { call: string }).call !== path[path.length - 1]) {
    return `a ${type}'s event is of call ${showValue((event as { call: string }).call)}, but its path ends in ${showValue(path[path.length - 1])}`;
  }
  return value as unknown as PartRecord;
}

function readElementEnd(value: Record<string, unknown>): PartRecord | string {
  if (value.status !== 'succeeded' && value.status !== 'failed') {
    return `an element:end must have a "status" (succeeded, failed), got ${showValue(value.status)}`;
  }
  const error = value.error;
  if (error !== null && !isCallError(error)) {
    return 'an element:end must have an "error": {"message": string, "code"?: string} or null';
  }
  const replaced = value[REPLACED_FIELDS];
  if (
    replaced !== undefined &&
    !(Array.isArray(replaced) && replaced.length === 1 && replaced[0] === 'output')
  ) {
    return `an element:end's "${REPLACED_FIELDS}" may only name "output"`;
  }
  if (value.status === 'succeeded' && error !== null)
    return 'a succeeded element:end must have "error": null';
  return value as unknown as PartRecord;
}

function pathProblem(type: string, path: unknown, element: boolean, maxForEach: number): string | undefined {
  const bad = `a ${type} must have a "path" of call ids and element indices`;
  if (!Array.isArray(path)) return `${bad}, got ${showValue(path)}`;
  if (path.length < 2 || path.length > MAX_PART_PATH) {
    return `${bad}, from 2 to ${MAX_PART_PATH} long, got ${path.length}`;
  }
  for (let s = 0; s < path.length; s++) {
    const segment: unknown = path[s];
    if (typeof segment === 'string') {
      if (segment === '' || segment.length > MAX_SEGMENT_CHARS)
        return `${bad}, got a call id of ${segment.length} characters`;
      continue;
    }
    if (
      typeof segment !== 'number' ||
      !Number.isSafeInteger(segment) ||
      segment < 0 ||
      segment >= maxForEach
    ) {
      return `${bad}; an element index is a whole number below limits.maxForEach (${maxForEach}), got ${showValue(segment)}`;
    }
    if (s === 0 || typeof path[s - 1] === 'number') {
      return `${bad}; an element index follows the id of its call, got ${showValue(segment)} at ${s}`;
    }
  }
  const last = typeof path[path.length - 1] === 'number';
  if (last !== element) return `a ${type}'s path must end in ${element ? 'an element index' : 'a call id'}`;
  return undefined;
}

/** An element:end a resume reuses: it succeeded and its output was journaled whole. */
export function isReusableElement(end: Extract<PartEnd, { type: 'element:end' }>): boolean {
  return end.status === 'succeeded' && Object.hasOwn(end, 'output') && !Object.hasOwn(end, REPLACED_FIELDS);
}
