/** A thrown value as a call's error: plain data, `{message, code?}`, the same in any process. */
import type { CallError } from './types.js';

export function toCallError(error: unknown): CallError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? { message: error.message, code } : { message: error.message };
  }
  return {
    message: typeof error === 'string' ? error : `the tool threw ${JSON.stringify(error) ?? String(error)}`,
  };
}
