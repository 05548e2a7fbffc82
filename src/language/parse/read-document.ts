/**
 * Which of the five document shapes a parsed JSON value is (bare call array, plan message,
 * solution, context array, request), read into one {@link PlanDocument}; a value that is none of them is
 * E_SHAPE with the shapes it could have been.
 */
import { isMessageLike, readContext, readPlanMessage, unknownKeys } from './context-messages.js';
import { isRequestLike, readRequest } from './read-request.js';
import { error, type DiagnosticSink } from '../diagnostics.js';
import { describeJson, isJsonObject, type PlanDocument } from '../document.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { SourceText } from '../text/index.js';

const SHAPES_HINT =
  'a plan is an array of calls [{"_tool": ...}], a plan message {"type": "plan", "plan": [...]}, ' +
  'a solution {"calls": [...], "output": null}, a context array [{"type": "input", ...}, {"type": "plan", ...}], ' +
  'or a request {"schema": {...}, "context": [...]}';

const SOLUTION_KEYS = new Set(['calls', 'output']);

/** Recognizes the shape of a parsed JSON value. Returns null (with diagnostics) when none fits. */
export function readDocument(
  value: unknown,
  source: SourceText,
  diagnostics: DiagnosticSink,
  limits: Limits = DEFAULT_LIMITS,
): PlanDocument | null {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isMessageLike))
      return readContext(value, source, diagnostics, limits, true);
    return { shape: 'calls', mode: 'eager', calls: value, callsPointer: '', source };
  }
  if (isJsonObject(value)) {
    if (value.type === 'plan') {
      const plan = readPlanMessage(value, '', diagnostics);
      return plan && { shape: 'plan', ...plan, source };
    }
    if ('calls' in value) {
      unknownKeys(value, SOLUTION_KEYS, '', 'solution', diagnostics);
      if (!Array.isArray(value.calls)) {
        diagnostics.push(
          error('E_SHAPE', '/calls', 'a solution\'s "calls" must be an array of calls', {
            hint: SHAPES_HINT,
          }),
        );
        return null;
      }
      return {
        shape: 'solution',
        mode: 'eager',
        calls: value.calls,
        callsPointer: '/calls',
        output: value.output,
        source,
      };
    }
    if (isRequestLike(value)) return readRequest(value, source, diagnostics, limits);
    if (typeof value.type === 'string') {
      diagnostics.push(
        error('E_SHAPE', '/type', `a lone "${value.type}" message is not a plan`, {
          hint: 'put messages in a context array with a plan message: [{"type": "input", ...}, {"type": "plan", "plan": [...]}]',
        }),
      );
      return null;
    }
  }
  diagnostics.push(
    error('E_SHAPE', '', `expected a plan document but found ${describeJson(value)}`, { hint: SHAPES_HINT }),
  );
  return null;
}
