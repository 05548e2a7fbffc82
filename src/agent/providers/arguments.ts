/** Tool-call arguments as a model wrote them, read into the contract's shape. */
import type { ModelToolCall } from '../model.js';

/** The argument fields of a {@link ModelToolCall}. */
export type ParsedArguments = Pick<ModelToolCall, 'arguments' | 'argumentsText' | 'argumentsError'>;

/**
 * Parses the JSON text of a tool call's arguments. Empty text is no arguments (`{}`), since
 * models send it for tools that take none. Text that is not a JSON object gives `{}` with the
 * text and the reason kept, so the agent can tell the model what was wrong instead of failing.
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      arguments: {},
      argumentsText: text,
      argumentsError: `the arguments are not valid JSON: ${(error as Error).message}`,
    };
  }
  if (!isPlainObject(value)) {
    return {
      arguments: {},
      argumentsText: text,
      argumentsError: `the arguments must be a JSON object, not ${describeJson(value)}`,
    };
  }
  return { arguments: value };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
