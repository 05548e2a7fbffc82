/**
 * Values already known to be JSON data within the limits (the state, a checked result): a deep
 * copy and the length of the JSON text, without the checks of json-walk.ts, each a loop over an
 * explicit stack. Sizes count each string by its length (escapes are not counted) and each
 * number by its digits: a bound, cheap to keep while walking.
 */
import { setOwnProperty } from './set-own-property.js';

/**
 * A deep copy of a value already known to be JSON data within the limits (the state, a checked
 * result), without checks: a loop, not structuredClone's recursion.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const root: unknown = Array.isArray(value) ? new Array(value.length) : {};
  const stack: [object, Record<string, unknown> | unknown[]][] = [[value, root as object as unknown[]]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let i = 0; i < source.length; i++) {
        const item: unknown = source[i];
        if (item !== null && typeof item === 'object') {
          const copy = Array.isArray(item) ? new Array(item.length) : {};
          out[i] = copy;
          stack.push([item, copy]);
        } else out[i] = item;
      }
    } else {
      const out = target as Record<string, unknown>;
      for (const key in source) {
        if (!Object.hasOwn(source, key)) continue;
        const item: unknown = (source as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') {
          const copy = Array.isArray(item) ? new Array(item.length) : {};
          setOwnProperty(out, key, copy);
          stack.push([item, copy]);
        } else setOwnProperty(out, key, item);
      }
    }
  }
  return root as T;
}

/** The length of the JSON text of a value already known to be JSON data (see the file's note). */
export function jsonSize(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') {
      size += scalarSize(item);
    } else if (Array.isArray(item)) {
      size += 2 + Math.max(0, item.length - 1);
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else {
      let keys = 0;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        const member: unknown = (item as Record<string, unknown>)[key];
        if (member === undefined) continue;
        size += key.length + 3;
        keys++;
        stack.push(member);
      }
      size += 2 + Math.max(0, keys - 1);
    }
  }
  return size;
}

/** JSON's text length of a scalar; undefined (a dropped member, or null in an array) as null. */
export function scalarSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isInteger(value) && value >= 0 && value < 1e9 ? digits(value) : String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    default:
      return 4; // null
  }
}

function digits(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}
