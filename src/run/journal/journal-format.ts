/**
 * The journal's line format: one `RunEvent` as JSON per line. Writing never throws on values
 * JSON cannot hold; reading is journal-records' and journal-scan's.
 */
import { eventJson, firstLine, jsonWithStandIns, REPLACED_FIELDS } from '../../language/json/index.js';
import { plainCanonicalJson } from './journal-canonical.js';
import type { RunEvent } from '../types.js';

export type CallEndEvent = Extract<RunEvent, { readonly type: 'call:end' }>;

export { REPLACED_FIELDS, type Unserializable } from '../../language/json/index.js';

/**
 * One event as one line of JSON, newline included. Whatever JSON.stringify drops (undefined,
 * functions, symbols) is dropped; a field it throws on is replaced by `{"unserializable": reason}`
 * and named in `unserializableFields`, and the line is still written.
 */
export function encodeEvent(event: RunEvent): string {
  try {
    // Arguments many calls share are serialised once (see language/json/shared-json.ts).
    return `${eventJson(event)}\n`;
  } catch (cause) {
    const line = jsonWithStandIns(event);
    if (line !== undefined) return `${line}\n`;
    // Only an event whose own getters throw differently on a second read gets here.
    const type = typeof event.type === 'string' ? event.type : 'unknown';
    return `${JSON.stringify({ type, unserializable: firstLine(cause), [REPLACED_FIELDS]: ['*'] })}\n`;
  }
}

/**
 * A call whose output a resume can reuse: it succeeded or its throw was handled (both wrote
 * their output), and that output was journaled as it was, not as a stand-in.
 */
export function isReusable(event: CallEndEvent): boolean {
  const done = event.status === 'succeeded' || (event.status === 'failed' && event.handled);
  if (!done) return false;
  const replaced = (event as unknown as Record<string, unknown>)[REPLACED_FIELDS];
  return !(Array.isArray(replaced) && replaced.includes('output'));
}

/**
 * JSON with every object's keys sorted, so equal values give equal text whatever their key
 * order. Undefined and functions are dropped as JSON.stringify drops them.
 *
 * @throws {TypeError} for a cycle, a BigInt, a Map or a Set (which JSON.stringify would silently
 *   turn into `{}`, making different values look equal).
 */
export function canonicalJson(value: unknown): string {
  try {
    const plain = plainCanonicalJson(value);
    if (plain !== undefined) return plain;
  } catch {
    // A getter or a proxy threw: the general path below meets it again and reports it as JSON would.
  }
  // The first pass applies toJSON and drops what JSON drops, with JSON.stringify's own cycle check;
  // the second sorts keys on a tree that now has no cycles.
  const plain = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof Map || item instanceof Set) {
      throw new TypeError(
        `canonical JSON cannot hold a ${item instanceof Map ? 'Map' : 'Set'}; pass plain JSON`,
      );
    }
    return item;
  });
  if (plain === undefined) return 'null';
  return JSON.stringify(JSON.parse(plain), (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    // A null prototype, so that a "__proto__" key stays a key.
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/** The same status, alternative and output (as canonical JSON): a replay of the same result. */
export function sameResult(a: CallEndEvent, b: CallEndEvent): boolean {
  if (a.status !== b.status || a.handled !== b.handled || a.branch !== b.branch) return false;
  if (a.output === undefined || b.output === undefined) return a.output === b.output;
  return canonicalJson(a.output) === canonicalJson(b.output);
}
