/**
 * `_forEach`: the array a call runs its tool over, once per element. Its value must be a
 * reference string (`"†state.results"`): it is read like an argument at FOR_EACH_POINTER (so the
 * data flow binds it and the type flow types it as any read), and `†item` / `†index` in the
 * call's arguments are taken by the argument scanner (read-call.ts) instead of refused.
 */
import { error, type DiagnosticSink } from '../../language/diagnostics.js';
import { describeJson, type JsonObject } from '../../language/document.js';
import { DAGGER } from '../../language/reference.js';
import type { Limits } from '../../language/limits.js';
import type { StringParser } from '../../language/reference.js';
import { type ReferenceFacts, UNCHECKED } from '../storage/index.js';
import { place } from './call-place.js';
import { checkPathLimits } from './output-path.js';

/** What of readCall's options the `_forEach` is read with (its parser, facts and limits). */
interface ForEachReading {
  readonly parser: StringParser;
  readonly facts: ReferenceFacts;
  readonly limits: Limits;
}

const HINT =
  'write "_forEach": "†state.list" (one reference to an array); the call then runs once per element';

/**
 * The number of the call's `_forEach` string (see ReferenceFacts), ready to be added to the
 * call's references at FOR_EACH_POINTER; -1 (and a diagnostic) when it is no reference.
 */
export function readForEach(raw: JsonObject, options: ForEachReading, diagnostics: DiagnosticSink): number {
  const value = raw._forEach;
  const at = place.inside('/_forEach');
  if (Object.hasOwn(raw, '_output')) {
    diagnostics.push(
      error('E_FOR_EACH', place.inside('/_output'), 'a _forEach call cannot carry _output', {
        call: place.id,
        atKey: true,
        hint: 'a latent tool cannot loop: write one call per element with its own _output, or use a tool that runs',
      }),
    );
  }
  if (typeof value !== 'string' || !value.startsWith(DAGGER) || value.startsWith(DAGGER + DAGGER)) {
    diagnostics.push(
      error('E_FOR_EACH', at, `_forEach must be a reference to an array, not ${describeJson(value)}`, {
        call: place.id,
        hint: HINT,
      }),
    );
    return -1;
  }
  const { parser, facts, limits } = options;
  const n = parser.numberOnly(value);
  if (facts.kindOf(n) !== UNCHECKED) return n;
  const parsed = parser.parsed(n);
  if (parsed.kind === 'error') {
    diagnostics.push(
      error(parsed.code, at, parsed.message, {
        call: place.id,
        offset: parsed.offset,
        hint:
          parsed.code === 'E_FOR_EACH_REF'
            ? 'a _forEach reads an array of the state or the input'
            : (parsed.hint ?? HINT),
      }),
    );
    return -1;
  }
  if (parsed.kind !== 'expression') return -1;
  if (!checkPathLimits(parsed.expression.refs, '/_forEach', limits, diagnostics)) return -1;
  facts.fits(n, parsed.expression, value);
  return n;
}
