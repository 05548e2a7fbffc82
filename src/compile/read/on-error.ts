/**
 * A call's error alternative: the one `||` alternative of its `_outputPath` that receives the
 * tool's own error when it throws. It is declared, never guessed: by the plan (`_onError`, any
 * alternative), else by the tool (`errorBranch: true`: the last of two or more). Without either a
 * throw fails the call, so a tool whose alternatives are outcomes of its own (sunny, not sunny)
 * never has an error taken for one of them.
 */
import { error, type DiagnosticSink } from '../../language/diagnostics.js';
import { describeJson } from '../../language/document.js';
import { firstSelector, type PathSegment, selectorText, type Wildcard } from '../../language/paths.js';
import { parseExpression } from '../../language/reference.js';
import type { Tool } from '../../tools/tool.js';
import type { OutputPath } from '../types.js';

/** Where the call being read is, for its diagnostics (read-call's CallPlace). */
export interface OnErrorPlace {
  readonly id: string;
  /** The pointer of a place inside the call: `at` is `/key...`. */
  inside(at: string): string;
}

const SHAPE = '"_outputPath": "†state.receipt || †state.error", "_onError": "†state.error"';

/**
 * The alternative `_onError` names (its index in `output`), or null with an E_ON_ERROR (or the
 * reference's syntax error) when it names none. `output` is the call's `_outputPath` as read
 * (null when it has none, or when it is invalid: `outputGiven` tells them apart).
 */
export function readOnError(
  raw: unknown,
  output: OutputPath | null,
  outputGiven: boolean,
  place: OnErrorPlace,
  diagnostics: DiagnosticSink,
): number | null {
  const pointer = place.inside('/_onError');
  const fail = (message: string, hint: string, offset?: number): null => {
    diagnostics.push(
      error('E_ON_ERROR', pointer, message, {
        call: place.id,
        hint,
        ...(offset !== undefined && { offset }),
      }),
    );
    return null;
  };
  if (typeof raw !== 'string') {
    return fail(
      `_onError must be a string naming one alternative of the _outputPath, not ${describeJson(raw)}`,
      `name the alternative that receives the tool's error: ${SHAPE}`,
    );
  }
  if (!raw.startsWith('†') || raw.startsWith('††')) {
    return fail(
      `_onError must be a reference to state, not text`,
      `name the alternative that receives the tool's error: ${SHAPE}`,
      0,
    );
  }
  const parsed = parseExpression(raw);
  if ('kind' in parsed) {
    diagnostics.push(
      error(parsed.code, pointer, parsed.message, {
        call: place.id,
        offset: parsed.offset,
        ...(parsed.hint && { hint: parsed.hint }),
      }),
    );
    return null;
  }
  const ref = parsed.refs[0]!;
  if (parsed.op !== null) {
    return fail(
      `_onError names one alternative, not an expression (${raw})`,
      `keep one path: "_onError": "${ref.text}"`,
      parsed.refs[1]!.start,
    );
  }
  if (ref.root !== 'state') {
    return fail(
      `_onError cannot name ${ref.text}: the error alternative is a state path of the _outputPath`,
      `name one of the _outputPath's alternatives: ${SHAPE}`,
      0,
    );
  }
  const selector = firstSelector(ref.segments);
  if (selector >= 0) {
    const text = selectorText(ref.segments[selector] as Wildcard);
    return fail(
      `_onError cannot use ${text}: ${ref.text} names no single alternative`,
      `name one of the _outputPath's alternatives: ${SHAPE}`,
      ref.text.indexOf(text),
    );
  }
  // An invalid _outputPath has its own error already.
  if (outputGiven && output === null) return null;
  if (output === null) {
    return fail(
      `_onError names the alternative that receives the tool's error, but call ${place.id} has no _outputPath`,
      `give the call alternatives and name the error's: ${SHAPE}`,
      0,
    );
  }
  if (output.op !== '||') {
    const what =
      output.op === '&&'
        ? `"${output.text}" writes every path (&&), so no alternative is the error's`
        : `"${output.text}" is one path, not alternatives`;
    return fail(
      `_onError needs an _outputPath of two or more || alternatives: ${what}`,
      `write the result and the error as alternatives: ${SHAPE}`,
      0,
    );
  }
  const k = output.paths.findIndex((path) => samePath(path.segments, ref.segments as readonly PathSegment[]));
  if (k < 0) {
    const names = output.refs.map((r) => r.text).join(', ');
    return fail(
      `_onError names ${ref.text}, which is not one of the alternatives of "${output.text}"`,
      `name one of ${names}: "_onError": "${output.refs[output.refs.length - 1]!.text}"`,
      0,
    );
  }
  return k;
}

/** The same place: segment by segment, as strings (index 0 and key "0" are one property). */
function samePath(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/**
 * The alternative the tool declares for its errors (`errorBranch: true`: the last of two or
 * more `||` alternatives), or null.
 */
export function toolErrorAlternative(output: OutputPath | null, tool: Tool | undefined): number | null {
  if (tool?.errorBranch !== true || output?.op !== '||' || output.paths.length < 2) return null;
  return output.paths.length - 1;
}

/**
 * The alternative a plain value (not a branch value) goes to: the first, or the second when the
 * first is the error alternative (which holds only errors).
 */
export function plainAlternative(errorAlternative: number | null): number {
  return errorAlternative === 0 ? 1 : 0;
}
