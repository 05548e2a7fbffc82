/**
 * Short, safe descriptions of values a tools module hands over: a value to name in a message,
 * and what a getter or a Proxy trap threw. Neither may throw itself nor grow without bound,
 * because the value is whatever the module's code made it.
 */

/** Characters of a value shown in a problem, and of a thrown message. */
const MAX_VALUE = 60;
const MAX_MESSAGE = 300;

/** `"x"`, `-3`, `NaN`, `10n`, `null`, `an object`: what a problem says it found. */
export function showValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(clip(value, MAX_VALUE));
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'bigint':
      return clip(`${value}n`, MAX_VALUE);
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return 'null';
      return isArrayValue(value) ? 'an array' : 'an object';
  }
}

/** The first line of what was thrown, clipped; never throws, whatever was thrown. */
export function thrownMessage(thrown: unknown): string {
  try {
    const text =
      thrown !== null && typeof thrown === 'object' && 'message' in thrown
        ? String((thrown as { message: unknown }).message)
        : String(thrown);
    const newline = text.indexOf('\n');
    return clip((newline < 0 ? text : text.slice(0, newline)).trim(), MAX_MESSAGE) || 'an empty message';
  } catch {
    return 'a value that cannot be shown';
  }
}

/** Array.isArray, but false for a revoked Proxy (on which Array.isArray throws). */
export function isArrayValue(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    // A revoked Proxy: not an array, and no use telling more.
    return false;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
