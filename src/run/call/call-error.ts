/**
 * A thrown value as a call's error: plain data, `{message, code?}`, the same in any process.
 * Whatever was thrown (a string, null, a BigInt, a cyclic object, a Proxy whose traps throw, an
 * Error whose `message` getter throws) becomes a bounded message; describing it never throws.
 */
import { copyJson } from '../../language/json/index.js';
import { DEFAULT_LIMITS } from '../../language/limits.js';
import type { CallError } from '../types.js';

/** Longest message kept: a tool (or an MCP server) may throw megabytes of text. */
export const MAX_ERROR_MESSAGE = 10_000;

/** How much of a thrown object is shown: enough to recognize it, never a walk of all of it. */
const SHOWN = { ...DEFAULT_LIMITS, maxDepth: 8, maxTextLength: 2_000, maxKeys: 100 };

export function toCallError(error: unknown): CallError {
  try {
    if (error instanceof Error || hasStringMessage(error)) {
      const { message, code } = error as { message: unknown; code?: unknown };
      const text = typeof message === 'string' ? message : describeThrown(message);
      return typeof code === 'string' && code !== ''
        ? { message: boundedErrorText(text), code: boundedErrorText(code, 100) }
        : { message: boundedErrorText(text) };
    }
    return {
      message: boundedErrorText(
        typeof error === 'string' ? error : `the tool threw ${describeThrown(error)}`,
      ),
    };
  } catch (e) {
    // A getter or Proxy trap that throws while being read: say so, with what it threw.
    return { message: `the tool threw a value that cannot be read (${safeText(e)})` };
  }
}

/** A thrown plain object like `{message: 'card declined', code: 'DECLINED'}` counts as an error. */
function hasStringMessage(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** What a non-Error throw was, short: `null`, `10n`, `{"a":1}`, `an object that JSON cannot hold`. */
function describeThrown(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return `${String(value).slice(0, 40)}n`;
    case 'symbol':
      return String(value);
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
  }
  const copy = copyJson(value, { limits: SHOWN });
  if ('problem' in copy) {
    return copy.problem.code === 'LIMIT'
      ? 'a value too big to show'
      : `a value that JSON cannot hold (${copy.problem.pointer || 'it'} ${copy.problem.message})`;
  }
  return JSON.stringify(copy.value) ?? 'undefined';
}

/** The text, cut to `most` characters with a count of the rest. */
export function boundedErrorText(text: string, most = MAX_ERROR_MESSAGE): string {
  return text.length > most ? `${text.slice(0, most)}… (${text.length - most} more characters)` : text;
}

function safeText(e: unknown): string {
  try {
    return boundedErrorText(e instanceof Error ? e.message : String(e), 200);
  } catch {
    return 'and so did describing it';
  }
}
