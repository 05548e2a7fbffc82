/** Bad values, rendered short and safe for the messages of TypeErrors. */

/** A short rendering of a bad value: its type, and the value when it is short and plain. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value)}`;
}

/** Array.isArray, which throws on a revoked Proxy: describing a bad value must not throw. */
function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}
